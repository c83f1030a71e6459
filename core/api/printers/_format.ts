/** Cell formatting helpers shared by the printers, after kube's labels, metav1 and printers helpers. */
import { type LabelRequirement, labelSelectorFromObject } from "../label-selector.ts";
import { compareByteOrder } from "../byte-order.ts";

export interface LabelSelectorObject {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: { key: string; operator: string; values?: string[] | null }[] | null;
}

export interface ContainerLike {
  name: string;
  image?: string;
}

/** labels.FormatLabels: sorted `k=v` pairs, "<none>" when empty. */
export function formatLabels(labels: Record<string, string> | null | undefined): string {
  const pairs = Object.keys(labels ?? {})
    .sort(compareByteOrder)
    .map((key) => `${key}=${labels![key]}`);
  return pairs.length === 0 ? "<none>" : pairs.join(",");
}

function requirementText({ key, operator, values }: LabelRequirement): string {
  if (operator === "exists") return key;
  if (operator === "!") return `!${key}`;
  if (operator === "in" || operator === "notin") return `${key} ${operator} (${[...values].sort(compareByteOrder).join(",")})`;
  return `${key}${operator}${values[0]}`;
}

/** labels.Selector.String() of metav1.LabelSelectorAsSelector; undefined when the selector is invalid. */
export function selectorText(selector: LabelSelectorObject | null | undefined): string | undefined {
  try {
    return labelSelectorFromObject(selector).requirements.map(requirementText).join(",");
  } catch {
    return undefined;
  }
}

/** metav1.FormatLabelSelector: "<none>" for an empty or absent selector, "<error>" for an invalid one. */
export function formatLabelSelector(selector: LabelSelectorObject | null | undefined): string {
  const text = selectorText(selector);
  if (text === undefined) return "<error>";
  return text === "" ? "<none>" : text;
}

/** layoutContainerCells: container names and images, each comma-joined. */
export function containerCells(containers: ContainerLike[] | undefined): [string, string] {
  const list = containers ?? [];
  return [list.map((c) => c.name).join(","), list.map((c) => c.image ?? "").join(",")];
}

/** kube's "a,b,c + N more..." lists of at most three (or `max`) entries. */
export function listWithMore(items: string[], options: { max?: number; empty?: string; separator?: string } = {}): string {
  const max = options.max ?? 3;
  const shown = items.slice(0, max).join(options.separator ?? ",");
  if (items.length > max) return `${shown} + ${items.length - max} more...`;
  return shown === "" && options.empty !== undefined ? options.empty : shown;
}

/** printBoolPtr: "True", "False", or "<unset>". */
export function formatOptionalBool(value: boolean | null | undefined): string {
  if (value === undefined || value === null) return "<unset>";
  return value ? "True" : "False";
}

/** net.JoinHostPort: IPv6 hosts are bracketed. */
export function joinHostPort(host: string, port: number | string): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

/** A resource.Quantity or IntOrString as text; absent quantities print as kube's zero value. */
export function quantityText(value: string | number | null | undefined, zero = "0"): string {
  return value === undefined || value === null ? zero : String(value);
}

/** Distinct load-balancer ingress points (IP, else hostname), sorted as kube's sets.String. */
export function loadBalancerText(ingress: { ip?: string; hostname?: string }[] | undefined): string {
  const points = new Set<string>();
  for (const point of ingress ?? []) {
    const text = point.ip || point.hostname;
    if (text) points.add(text);
  }
  return [...points].sort(compareByteOrder).join(",");
}

export function sortedStrings(values: Iterable<string>): string[] {
  return [...values].sort(compareByteOrder);
}
