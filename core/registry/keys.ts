/** Storage key layout: `/<group or "core">/<resource>/<namespace>/<name>`, so every collection is a key prefix. */
import type { ResourceType } from "../api/resource-type.ts";

/**
 * Resources served by one group but stored as another group's resource, under its keys (kube's cohabiting
 * resources, DefaultStorageFactory.AddCohabitatingResources in pkg/kubeapiserver/default_storage_factory_builder.go):
 * events.k8s.io Events are core Events, one collection read and written through either group.
 */
const STORED_AS_GROUP: Readonly<Record<string, string>> = { "events.k8s.io/events": "" };

/** The group whose collection holds `type`'s objects: its own, or the one it cohabits with. */
export function storageGroupOf(type: Pick<ResourceType, "group" | "resource">): string {
  return STORED_AS_GROUP[`${type.group}/${type.resource}`] ?? type.group;
}

export function collectionPrefix(type: Pick<ResourceType, "group" | "resource" | "namespaced">, namespace: string): string {
  const base = `/${storageGroupOf(type) || "core"}/${type.resource}/`;
  return type.namespaced && namespace !== "" ? `${base}${namespace}/` : base;
}

export function objectKey(type: Pick<ResourceType, "group" | "resource" | "namespaced">, namespace: string, name: string): string {
  return `${collectionPrefix(type, type.namespaced ? namespace : "")}${name}`;
}
