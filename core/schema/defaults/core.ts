/** core/v1 defaults (pkg/apis/core/v1/defaults.go) of every kind but Service (service.ts). */
import { isPlainObject, type KubeObject } from "../../api/types.ts";
import { defaultPodSpec, defaultTemplateAt } from "./pod-spec.ts";
import { defaultService } from "./service.ts";
import { defaultClaimSpec, defaultSharedSources } from "./volumes.ts";
import { defaultPointer, defaultString, ensureObject, type Fields, isEmpty, objectAt, objectsAt } from "./_fields.ts";
import type { KindDefaulters } from "./_registry.ts";

function defaultPod(pod: KubeObject): void {
  const spec = objectAt(pod, "spec");
  if (!spec) return;
  // SetDefaults_Pod (not PodSpec): a container's limits stand in for the requests it leaves out.
  for (const container of [...objectsAt(spec, "containers"), ...objectsAt(spec, "initContainers")]) {
    const resources = objectAt(container, "resources");
    const limits = objectAt(resources, "limits");
    if (!resources || !limits || isEmpty(limits)) continue;
    const requests = ensureObject(resources, "requests");
    if (!requests) continue;
    for (const [name, quantity] of Object.entries(limits)) if (!(name in requests)) requests[name] = quantity;
  }
  defaultPointer(spec, "enableServiceLinks", true);
  defaultPodSpec(spec);
}

function defaultReplicationController(rc: KubeObject): void {
  const spec = objectAt(rc, "spec");
  if (!spec) return;
  const labels = objectAt(objectAt(spec, "template"), "metadata")?.labels;
  if (isPlainObject(labels)) {
    if (isEmpty(spec.selector)) spec.selector = { ...labels };
    if (isEmpty(rc.metadata.labels)) rc.metadata.labels = { ...labels } as Record<string, string>;
  }
  defaultPointer(spec, "replicas", 1);
  defaultTemplateAt(spec);
}

function defaultPersistentVolume(pv: KubeObject): void {
  const status = ensureObject(pv, "status");
  if (status) defaultString(status, "phase", "Pending");
  const spec = objectAt(pv, "spec");
  if (!spec) return;
  defaultString(spec, "persistentVolumeReclaimPolicy", "Retain");
  defaultPointer(spec, "volumeMode", "Filesystem");
  defaultSharedSources(spec);
}

/** Also used for StatefulSet volumeClaimTemplates. */
export function defaultPersistentVolumeClaim(claim: Fields): void {
  const status = ensureObject(claim, "status");
  if (status) defaultString(status, "phase", "Pending");
  const spec = objectAt(claim, "spec");
  if (spec) defaultClaimSpec(spec);
}

function defaultNamespace(namespace: KubeObject): void {
  const name = namespace.metadata.name;
  // The well-known label kubernetes.io/metadata.name always carries the namespace's own name.
  if (typeof name === "string" && name !== "") {
    const labels = isPlainObject(namespace.metadata.labels) ? namespace.metadata.labels : {};
    namespace.metadata.labels = { ...labels, "kubernetes.io/metadata.name": name };
  }
  const status = ensureObject(namespace, "status");
  if (status) defaultString(status, "phase", "Active");
}

function defaultNode(node: KubeObject): void {
  const status = objectAt(node, "status");
  const capacity = objectAt(status, "capacity");
  if (status && capacity && (status.allocatable === undefined || status.allocatable === null)) status.allocatable = { ...capacity };
}

/** SetDefaults_LimitRangeItem: a Container item's default limit falls back to max, its default request to the limit, then to min. */
function defaultLimitRange(limitRange: KubeObject): void {
  for (const item of objectsAt(objectAt(limitRange, "spec"), "limits")) {
    if (item.type !== "Container") continue;
    const fallback = (target: string, source: string): void => {
      const into = ensureObject(item, target);
      for (const [name, quantity] of Object.entries(objectAt(item, source) ?? {})) if (into && !(name in into)) into[name] = quantity;
    };
    fallback("default", "max");
    fallback("defaultRequest", "default");
    fallback("defaultRequest", "min");
    for (const key of ["default", "defaultRequest"]) if (isEmpty(item[key])) delete item[key];
  }
}

function defaultEndpoints(endpoints: KubeObject): void {
  for (const subset of objectsAt(endpoints, "subsets")) {
    for (const port of objectsAt(subset, "ports")) defaultString(port, "protocol", "TCP");
  }
}

export const CORE_DEFAULTERS: KindDefaulters = {
  group: "",
  version: "v1",
  kinds: {
    Pod: defaultPod,
    PodTemplate: (template) => defaultTemplateAt(template),
    ReplicationController: defaultReplicationController,
    Service: defaultService,
    Secret: (secret) => defaultString(secret, "type", "Opaque"),
    Endpoints: defaultEndpoints,
    PersistentVolume: defaultPersistentVolume,
    PersistentVolumeClaim: defaultPersistentVolumeClaim,
    Namespace: defaultNamespace,
    Node: defaultNode,
    LimitRange: defaultLimitRange,
  },
};
