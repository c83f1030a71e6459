/**
 * Follows one collection the way an informer does: every current object as ADDED, then each committed change,
 * handed over synchronously right after its commit, so a reader sees a write before its request is answered.
 */
import type { CollectionEvent, CollectionFollow } from "../api/client.ts";
import type { Storage, StorageEvent } from "../storage/storage.ts";
import { decodeStored } from "./codec.ts";
import { logger } from "../log/mod.ts";

const log = logger("collection-follow");

export async function followCollection(
  storage: Storage,
  prefix: string,
  onEvent: (event: CollectionEvent) => void,
): Promise<CollectionFollow> {
  const deliver = (event: CollectionEvent) => {
    try {
      onEvent(event);
    } catch (error) {
      // A failing reader must not break the commit path that calls it.
      log.error(`watcher of ${prefix} failed`, error);
    }
  };
  const early: StorageEvent[] = [];
  let live = false;
  // Subscribe before listing so nothing committed in between is missed.
  const unsubscribe = storage.subscribe((event) => {
    if (!event.kv.key.startsWith(prefix)) return;
    if (live) deliver({ type: event.type, object: decodeStored(event.kv) });
    else early.push(event);
  });
  try {
    const listed = await storage.range(prefix);
    for (const kv of listed.items) deliver({ type: "ADDED", object: decodeStored(kv) });
    for (const event of early) {
      if (event.revision > listed.revision) deliver({ type: event.type, object: decodeStored(event.kv) });
    }
  } catch (error) {
    unsubscribe();
    throw error;
  }
  live = true;
  return { stop: unsubscribe };
}
