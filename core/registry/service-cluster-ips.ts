/**
 * What kube's Service REST does to clusterIP and clusterIPs before an update is validated (beginUpdate in
 * pkg/registry/core/service/storage): values the client left out are kept (patchAllocatedValues), and the two
 * fields are brought in line when only one of them changed (normalizeClusterIPs). A changed clusterIP thus reaches
 * validation as a changed clusterIPs[0], which may not change once set.
 */
import type { KubeObject } from "../api/types.ts";

type ServiceSpec = { type?: string; clusterIP?: string; clusterIPs?: string[] };

const specOf = (obj: KubeObject): ServiceSpec => (obj.spec ?? {}) as ServiceSpec;
const sameClusterIPs = (a: ServiceSpec, b: ServiceSpec) => JSON.stringify(a.clusterIPs ?? []) === JSON.stringify(b.clusterIPs ?? []);

export function prepareServiceUpdate(obj: KubeObject, old: KubeObject): void {
  const spec = specOf(obj);
  const before = specOf(old);
  obj.spec = spec;
  // patchAllocatedValues: both sides need a cluster IP (neither is ExternalName).
  if (spec.type !== "ExternalName" && before.type !== "ExternalName") {
    if (!spec.clusterIP && before.clusterIP) spec.clusterIP = before.clusterIP;
    if (!spec.clusterIPs?.length && before.clusterIPs?.length) spec.clusterIPs = [...before.clusterIPs];
  }
  // normalizeClusterIPs: an old client that dropped clusterIPs but kept clusterIP keeps them.
  if (before.clusterIPs?.length && !spec.clusterIPs?.length && (before.clusterIP ?? "") === (spec.clusterIP ?? "")) {
    spec.clusterIPs = [...before.clusterIPs];
  }
  if ((before.clusterIP ?? "") === (spec.clusterIP ?? "") || !sameClusterIPs(spec, before)) return;
  // clusterIP changed while clusterIPs did not: cleared together, or clusterIPs follows clusterIP.
  if (before.clusterIP && !spec.clusterIP) delete spec.clusterIPs;
  else spec.clusterIPs = [spec.clusterIP as string];
}
