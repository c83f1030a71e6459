/** What one object counts against a ResourceQuota (kube's quota evaluators, the common resources). */
import type { KubeObject } from "../../core/api/types.ts";
import { allContainers, type Container, podSpec } from "../_match.ts";
import { addQuantities, countQuantity, maxQuantity, type Quantity, quantityOrZero, ZERO_QUANTITY } from "../../core/api/quantity.ts";

/** Resource name → exact quantity (counts are whole quantities). */
export type Usage = Record<string, Quantity>;

/** Core resources quota also counts under a bare name, e.g. `pods` besides `count/pods`. */
const LEGACY_COUNTS = new Set([
  "pods",
  "services",
  "configmaps",
  "secrets",
  "persistentvolumeclaims",
  "replicationcontrollers",
  "resourcequotas",
]);
const COMPUTE = ["cpu", "memory", "ephemeral-storage"];

export function countKey(group: string, resource: string): string {
  return group === "" ? `count/${resource}` : `count/${resource}.${group}`;
}

export function usageOf(group: string, resource: string, object: KubeObject): Usage {
  const usage: Usage = { [countKey(group, resource)]: countQuantity(1) };
  if (group !== "") return usage;
  if (LEGACY_COUNTS.has(resource)) usage[resource] = countQuantity(1);
  if (resource === "pods") Object.assign(usage, podCompute(object));
  if (resource === "services") Object.assign(usage, serviceUsage(object));
  if (resource === "persistentvolumeclaims") {
    const requests = (object.spec as { resources?: { requests?: Record<string, string> } } | undefined)?.resources?.requests;
    usage["requests.storage"] = quantityOrZero(requests?.storage);
  }
  return usage;
}

/** A pod's requests and limits: the larger of its containers' sum and its largest init container, plus overhead. */
function podCompute(pod: KubeObject): Usage {
  const spec = podSpec(pod);
  const usage: Usage = {};
  for (const kind of ["requests", "limits"] as const) {
    for (const name of COMPUTE) {
      const of = (c: Container) => quantityOrZero(c.resources?.[kind]?.[name]);
      const sum = (spec.containers ?? []).reduce((total, c) => addQuantities(total, of(c)), ZERO_QUANTITY);
      const init = (spec.initContainers ?? []).map(of).reduce(maxQuantity, ZERO_QUANTITY);
      const overhead = quantityOrZero((spec.overhead as Record<string, string> | undefined)?.[name]);
      usage[`${kind}.${name}`] = addQuantities(maxQuantity(sum, init), overhead);
      if (kind === "requests") usage[name] = usage[`${kind}.${name}`]!;
    }
  }
  return usage;
}

function serviceUsage(service: KubeObject): Usage {
  const spec = (service.spec ?? {}) as { type?: string; ports?: unknown[] };
  const exposesNodePorts = spec.type === "NodePort" || spec.type === "LoadBalancer";
  return {
    "services.loadbalancers": countQuantity(spec.type === "LoadBalancer" ? 1 : 0),
    "services.nodeports": countQuantity(exposesNodePorts ? (spec.ports ?? []).length : 0),
  };
}

/** Compute resources a quota constrains that some container leaves unset (kube: "must specify ..."). */
export function unspecifiedCompute(pod: KubeObject, constrained: string[]): string[] {
  const containers = allContainers(podSpec(pod)).filter((c) => !(podSpec(pod).ephemeralContainers ?? []).includes(c));
  const missing = constrained.filter((key) => {
    const [kind, name] = key.includes(".") ? key.split(".", 2) as [string, string] : ["requests", key];
    if ((kind !== "requests" && kind !== "limits") || !COMPUTE.includes(name)) return false;
    return containers.some((c) => c.resources?.[kind]?.[name] === undefined);
  });
  return missing.sort();
}
