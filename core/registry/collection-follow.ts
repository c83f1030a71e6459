/**
 * Follows one collection the way an informer does: every current object as ADDED, then each committed change,
 * handed over synchronously right after its commit (by the watch broker), so a reader sees a write before its
 * request is answered. Registry.follow() is the way in. A follower interested in some keys only names them with
 * `keep`: the others are never decoded, so a follower does not hold a parsed copy of a whole collection it ignores.
 */
import type { CollectionEvent, CollectionFollow } from "../api/client.ts";
import type { Storage, StorageEvent } from "../storage/storage.ts";
import type { WatchBroker } from "../watch/mod.ts";
import { decodeStored } from "./codec.ts";
import { logger } from "../log/mod.ts";

const log = logger("collection-follow");

export async function followCollection(
  storage: Pick<Storage, "range">,
  broker: Pick<WatchBroker, "follow">,
  prefix: string,
  onEvent: (event: CollectionEvent) => void,
  keep: (key: string) => boolean = () => true,
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
  // Follow before listing so nothing committed in between is missed.
  const unsubscribe = broker.follow(prefix, (event) => {
    if (!keep(event.kv.key)) return;
    if (live) deliver({ type: event.type, object: decodeStored(event.kv) });
    else early.push(event);
  });
  try {
    const listed = await storage.range(prefix);
    for (const kv of listed.items) if (keep(kv.key)) deliver({ type: "ADDED", object: decodeStored(kv) });
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
