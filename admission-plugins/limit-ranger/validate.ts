/**
 * Which constraints of a LimitRange item apply to a pod (per Container, and per Pod on the summed requests and
 * limits) or to a PersistentVolumeClaim (min and max of its storage request), as kube's LimitRanger checks them.
 */
import type { KubeObject } from "../../core/api/types.ts";
import { type Container, podSpec } from "../_match.ts";
import { addQuantities, formatQuantity, maxQuantity, type Quantity, quantityOrZero, ZERO_QUANTITY } from "../../core/api/quantity.ts";
import { limitRequestRatioConstraint, maxConstraint, maxRequestConstraint, minConstraint, type Resources } from "./constraints.ts";
import type { LimitItem } from "./defaults.ts";

export function podContainers(pod: KubeObject): Container[] {
  const spec = podSpec(pod);
  return [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
}

function checkAll(limitType: string, item: LimitItem, requests: Resources, limits: Resources): string[] {
  return [
    ...Object.entries(item.min ?? {}).map(([name, value]) => minConstraint(limitType, name, value, requests, limits)),
    ...Object.entries(item.max ?? {}).map(([name, value]) => maxConstraint(limitType, name, value, requests, limits)),
    ...Object.entries(item.maxLimitRequestRatio ?? {}).map(([name, value]) =>
      limitRequestRatioConstraint(limitType, name, value, requests, limits)
    ),
  ].filter((error): error is string => error !== undefined);
}

/** kube's pod totals: the sum over containers, raised to any single init container's larger value. */
function podTotal(pod: KubeObject, field: "requests" | "limits"): Resources {
  const spec = podSpec(pod);
  const total = new Map<string, Quantity>();
  for (const container of spec.containers ?? []) {
    for (const [name, value] of Object.entries(container.resources?.[field] ?? {})) {
      total.set(name, addQuantities(total.get(name) ?? ZERO_QUANTITY, quantityOrZero(value)));
    }
  }
  for (const container of spec.initContainers ?? []) {
    for (const [name, value] of Object.entries(container.resources?.[field] ?? {})) {
      total.set(name, maxQuantity(total.get(name) ?? ZERO_QUANTITY, quantityOrZero(value)));
    }
  }
  return Object.fromEntries([...total].map(([name, value]) => [name, formatQuantity(value)]));
}

export function podViolations(pod: KubeObject, item: LimitItem): string[] {
  if (item.type === "Container") {
    return podContainers(pod).flatMap((c) => checkAll("Container", item, c.resources?.requests ?? {}, c.resources?.limits ?? {}));
  }
  if (item.type === "Pod") return checkAll("Pod", item, podTotal(pod, "requests"), podTotal(pod, "limits"));
  return [];
}

export function claimViolations(claim: KubeObject, item: LimitItem): string[] {
  if (item.type !== "PersistentVolumeClaim") return [];
  const requests = ((claim.spec as { resources?: { requests?: Resources } } | undefined)?.resources?.requests) ?? {};
  return [
    ...Object.entries(item.min ?? {}).map(([name, value]) => minConstraint("PersistentVolumeClaim", name, value, requests, {})),
    ...Object.entries(item.max ?? {}).map(([name, value]) => maxRequestConstraint("PersistentVolumeClaim", name, value, requests)),
  ].filter((error): error is string => error !== undefined);
}
