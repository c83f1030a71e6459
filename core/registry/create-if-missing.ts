/**
 * Makes sure an object exists, the way kube's start-up code does it (createNamespaceIfNeeded,
 * SAControllerClientBuilder's getOrCreateServiceAccount): a read first, and a create only when it is missing. A
 * create that finds the object there fails with AlreadyExists only after the whole write path (admission,
 * validation, a storage transaction), which every restart would pay for each object.
 */
import { isAlreadyExists, isNotFound } from "../api/errors.ts";
import type { KubeObject } from "../api/types.ts";
import type { ResourceStore } from "./store.ts";

/** Whether the object had to be created (false when it was there, or another writer created it meanwhile). */
export async function createIfMissing(store: ResourceStore, namespace: string, object: KubeObject): Promise<boolean> {
  const exists = await store.get(namespace, String(object.metadata.name)).then(() => true, (error) => {
    if (isNotFound(error)) return false;
    throw error;
  });
  if (exists) return false;
  return store.create(namespace, object).then(() => true, (error) => {
    if (isAlreadyExists(error)) return false;
    throw error;
  });
}
