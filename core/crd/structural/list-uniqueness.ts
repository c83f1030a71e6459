/** kube's checks of `x-kubernetes-list-type` set and map lists: no duplicate items or keys (structural/listtype). */
import type { FieldError } from "../../api/errors.ts";
import { isPlainObject } from "../../api/types.ts";
import type { JSONSchemaProps } from "../../registry/apiextensions/mod.ts";

/** Duplicate-value errors for a set or map list; an atomic list may repeat items. */
export function listItemErrors(items: unknown[], schema: JSONSchemaProps, path: string): FieldError[] {
  const listType = schema["x-kubernetes-list-type"];
  if (listType !== "set" && listType !== "map") return [];
  const keys = schema["x-kubernetes-list-map-keys"] ?? [];
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  items.forEach((item, i) => {
    const identity = listType === "set" ? JSON.stringify(item) : mapKeyIdentity(item, keys);
    if (identity === undefined) return;
    if (seen.has(identity)) {
      const value = listType === "set" ? item : Object.fromEntries(keys.map((k) => [k, (item as Record<string, unknown>)[k]]));
      errors.push({ type: "FieldValueDuplicate", field: `${path}[${i}]`, value, valueText: goValueText(value), detail: "" });
    }
    seen.add(identity);
  });
  return errors;
}

/** Go's %#v of the duplicate as kube's listtype validation reports it: map keys as map[string]interface {}{...}. */
function goValueText(value: unknown): string {
  if (!isPlainObject(value)) return JSON.stringify(value);
  const entries = Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${JSON.stringify(value[key])}`);
  return `map[string]interface {}{${entries.join(", ")}}`;
}

function mapKeyIdentity(item: unknown, keys: string[]): string | undefined {
  if (!isPlainObject(item)) return undefined;
  return JSON.stringify(keys.map((key) => item[key] ?? null));
}
