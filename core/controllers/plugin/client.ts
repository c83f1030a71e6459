/**
 * A controller plugin's client: the stores as the plugin's service account. Writes go through the store's
 * actor (authorization, then admission); reads are authorized here with the get/list verbs a client's GET would
 * carry, since the stores themselves only check writes.
 */
import { isNotFound, newNotFound } from "../../api/errors.ts";
import type { StoreActor } from "../../registry/actor.ts";
import { listObjects } from "../../registry/list.ts";
import type { ResourceStore } from "../../registry/store.ts";
import type { ControllerClient, ResourceRef } from "./types.ts";

export function controllerClient(storeOf: (ref: ResourceRef) => ResourceStore, actor: StoreActor, fieldManager: string): ControllerClient {
  const read = async (ref: ResourceRef & { namespace?: string; name?: string }, verb: "get" | "list") => {
    const store = storeOf(ref);
    await actor.authorize(store.type, { verb, namespace: ref.namespace ?? "", name: ref.name ?? "", subresource: "" });
    return store;
  };
  return {
    async get(ref) {
      const store = await read(ref, "get");
      try {
        return await store.get(ref.namespace ?? "", ref.name);
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async list(ref) {
      const store = await read(ref, "list");
      return (await listObjects(store, { namespace: ref.namespace ?? "", revision: 0, limit: 0 })).list.items;
    },
    create: (ref, object) => storeOf(ref).create(ref.namespace ?? "", object, { fieldManager }),
    async update(ref, change) {
      const store = storeOf(ref);
      const { object } = await store.update(ref.namespace ?? "", ref.name, (current) => {
        if (!current) throw newNotFound({ group: ref.group, resource: ref.resource }, ref.name);
        return change(current);
      }, { fieldManager });
      return object;
    },
    async delete(ref) {
      await storeOf(ref).delete(ref.namespace ?? "", ref.name);
    },
  };
}
