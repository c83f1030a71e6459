/** The read-only client (core/api/client.ts) over the registry that plugins get. */
import type { ObjectReference, ReadOnlyClient } from "../api/client.ts";
import { isNotFound } from "../api/errors.ts";
import type { Catalog } from "./catalog.ts";
import { collectionPrefix } from "./keys.ts";
import { listObjects } from "./list.ts";
import type { Registry } from "./registry.ts";

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
