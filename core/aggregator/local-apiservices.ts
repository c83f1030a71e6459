/**
 * The local APIServices: one per group/version this server serves itself, as kube's autoregister and crdregistration
 * controllers keep them. Built-in ones are written on start (a user's later change stands until the next start);
 * those of custom resources follow the catalog continuously, restored when changed and removed with the last type.
 */
import { deepEqual } from "../api/equality.ts";
import { isAlreadyExists, isNotFound } from "../api/errors.ts";
import type { KubeObject } from "../api/types.ts";
import type { Catalog } from "../registry/catalog.ts";
import { AGGREGATOR_GROUP, builtInPriority, CUSTOM_RESOURCE_PRIORITY } from "../registry/group-priority.ts";
import type { ResourceStore } from "../registry/store.ts";

export const AUTO_MANAGED_LABEL = "kube-aggregator.kubernetes.io/automanaged";

export function apiServiceName(group: string, version: string): string {
  return `${version}.${group}`;
}

/** The local APIService kube-apiserver registers for a served group/version; undefined where it registers none. */
export function localAPIService(group: string, version: string, custom: boolean): KubeObject | undefined {
  if (group === AGGREGATOR_GROUP) return undefined;
  const priority = custom ? CUSTOM_RESOURCE_PRIORITY : builtInPriority(group, version);
  if (!priority) return undefined;
  return {
    apiVersion: "apiregistration.k8s.io/v1",
    kind: "APIService",
    metadata: { name: apiServiceName(group, version), labels: { [AUTO_MANAGED_LABEL]: custom ? "true" : "onstart" } },
    spec: { group, version, groupPriorityMinimum: priority.group, versionPriority: priority.version },
  };
}

/** Every local APIService the catalog's group/versions call for, by name. */
export function desiredLocalAPIServices(catalog: Catalog): Map<string, KubeObject> {
  const desired = new Map<string, KubeObject>();
  for (const type of catalog.all()) {
    const name = apiServiceName(type.group, type.version);
    if (desired.has(name)) continue;
    const apiService = localAPIService(type.group, type.version, !catalog.isBuiltIn(type));
    if (apiService) desired.set(name, apiService);
  }
  return desired;
}

function matches(live: KubeObject, desired: KubeObject): boolean {
  return deepEqual(live.spec, desired.spec) &&
    live.metadata.labels?.[AUTO_MANAGED_LABEL] === desired.metadata.labels?.[AUTO_MANAGED_LABEL];
}

/** Creates `desired`, or puts its spec and label back on the live object when they differ. */
export async function syncLocalAPIService(store: ResourceStore, desired: KubeObject): Promise<void> {
  const name = desired.metadata.name as string;
  const live = await store.get("", name).catch((error) => (isNotFound(error) ? undefined : Promise.reject(error)));
  if (!live) {
    await store.create("", structuredClone(desired)).catch((error) => (isAlreadyExists(error) ? undefined : Promise.reject(error)));
    return;
  }
  if (matches(live, desired)) return;
  await store.update("", name, (current) => {
    const base = current ?? live;
    return { ...base, metadata: { ...base.metadata, labels: { ...base.metadata.labels, ...desired.metadata.labels } }, spec: desired.spec };
  });
}

/** Deletes a continuously managed APIService whose group/version is no longer served. */
export async function removeLocalAPIService(store: ResourceStore, name: string): Promise<void> {
  await store.delete("", name).catch((error) => (isNotFound(error) ? undefined : Promise.reject(error)));
}

/** Whether a live APIService is one the catalog keeps continuously (custom resources) and drifted from `desired`. */
export function needsRestore(live: KubeObject | undefined, desired: KubeObject | undefined): boolean {
  if (!desired || desired.metadata.labels?.[AUTO_MANAGED_LABEL] !== "true") return false;
  return !live || !matches(live, desired);
}
