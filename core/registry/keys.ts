/** Storage key layout: `/<group or "core">/<resource>/<namespace>/<name>`, so every collection is a key prefix. */
import type { ResourceType } from "../api/resource-type.ts";

export function collectionPrefix(type: Pick<ResourceType, "group" | "resource" | "namespaced">, namespace: string): string {
  const base = `/${type.group || "core"}/${type.resource}/`;
  return type.namespaced && namespace !== "" ? `${base}${namespace}/` : base;
}

export function objectKey(type: Pick<ResourceType, "group" | "resource" | "namespaced">, namespace: string, name: string): string {
  return `${collectionPrefix(type, type.namespaced ? namespace : "")}${name}`;
}
