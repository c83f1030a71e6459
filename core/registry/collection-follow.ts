/**
 * Follows one collection the way an informer does: every current object as ADDED, then each committed change,
 * handed over synchronously right after its commit (by the watch broker), so a reader sees a write before its
 * request is answered. Registry.follow() is the way in. A follower interested in some keys only names them with
 * `keep`: the others are never decoded, so a follower does not hold a parsed copy of a whole collection it ignores.
 * A prefix over several revision sequences (`/` with --etcd-servers-overrides) is listed sequence by sequence, and a
 * change is new when it is past the list of its own sequence.
 */
import type { CollectionEvent, CollectionFollow } from "../api/client.ts";
import { sequenceOf, sequencesUnder, type Storage, type StorageEvent } from "../storage/storage.ts";
import type { WatchBroker } from "../watch/mod.ts";
import { decodeStored } from "./codec.ts";
import { logger } from "../log/mod.ts";

const log = logger("collection-follow");

export async function followCollection(
  storage: Storage,
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
    const listedAt = new Map<Storage, number>();
    for (const sequence of sequencesUnder(storage, prefix)) {
      const listed = await sequence.range(prefix);
      listedAt.set(sequence, listed.revision);
      for (const kv of listed.items) {
        // A sequence's own etcd may still hold keys that another sequence now serves (an override added later).
        if (keep(kv.key) && sequenceOf(storage, kv.key) === sequence) deliver({ type: "ADDED", object: decodeStored(kv) });
      }
    }
    for (const event of early) {
      if (event.revision > listedAt.get(sequenceOf(storage, event.kv.key))!) deliver({ type: event.type, object: decodeStored(event.kv) });
    }
  } catch (error) {
    unsubscribe();
    throw error;
  }
  live = true;
  return { stop: unsubscribe };
}
