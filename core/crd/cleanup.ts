/**
 * The CRD finalizer's work (apiextensions-apiserver pkg/controller/finalizer): delete every custom resource of a
 * terminating CRD; answers how many are still there (held by their own finalizers).
 */
import { isNotFound } from "../api/errors.ts";
import { decodeStored } from "../registry/codec.ts";
import { collectionPrefix } from "../registry/keys.ts";
import type { Registry } from "../registry/registry.ts";
import type { ResourceType } from "../api/resource-type.ts";

export async function deleteCustomResources(registry: Registry, type: ResourceType): Promise<number> {
  const store = registry.store(type);
  const { items } = await store.range(collectionPrefix(type, ""));
  let remaining = 0;
  for (const kv of items) {
    // Only the name is needed: no conversion (a conversion webhook may be gone already).
    const obj = decodeStored(kv);
    try {
      const { deleted } = await store.delete(obj.metadata.namespace ?? "", obj.metadata.name as string);
      if (!deleted) remaining++;
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
  return remaining;
}
