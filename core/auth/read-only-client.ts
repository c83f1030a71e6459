/** The read-only view of the store that plugins get: get and list of any served resource type. */
import { isNotFound } from "../api/errors.ts";
import type { KubeObject } from "../api/types.ts";
import type { Catalog } from "../registry/catalog.ts";
import type { CollectionEvent, CollectionFollow } from "../registry/collection-follow.ts";
import { collectionPrefix } from "../registry/keys.ts";
import { listObjects } from "../registry/list.ts";
import type { Registry } from "../registry/registry.ts";

export interface ObjectReference {
  group: string;
  version: string;
  resource: string;
  namespace?: string;
  name: string;
}

export interface ReadOnlyClient {
  /** The object, or null when it does not exist. */
  get(ref: ObjectReference): Promise<KubeObject | null>;
  /** Every object of the type, in one namespace or all. */
  list(ref: Omit<ObjectReference, "name">): Promise<KubeObject[]>;
  /**
   * Every object of the type (all namespaces) as ADDED, then each change, synchronously after its commit.
   * Resolves once the current objects have been handed over.
   */
  watch(ref: Omit<ObjectReference, "name" | "namespace">, onEvent: (event: CollectionEvent) => void): Promise<CollectionFollow>;
}

export function readOnlyClient(registry: Registry, catalog: Catalog): ReadOnlyClient {
  const storeOf = (ref: Omit<ObjectReference, "name">) => {
    const type = catalog.byGroupVersionResource(ref.group, ref.version, ref.resource);
    if (!type) throw new Error(`unknown resource ${ref.resource} in ${ref.group || "core"}/${ref.version}`);
    return registry.store(type);
  };
  return {
    async get(ref) {
      try {
        return await storeOf(ref).get(ref.namespace ?? "", ref.name);
      } catch (e) {
        if (isNotFound(e)) return null;
        throw e;
      }
    },
    async list(ref) {
      const page = await listObjects(storeOf(ref), { namespace: ref.namespace ?? "", revision: 0, limit: 0 });
      return page.list.items;
    },
    watch(ref, onEvent) {
      return registry.follow(collectionPrefix(storeOf(ref).type, ""), onEvent);
    },
  };
}
