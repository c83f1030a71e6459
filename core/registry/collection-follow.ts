/**
 * Follows one collection the way an informer does: every current object as ADDED, then each committed change,
 * handed over synchronously right after its commit (by the watch broker), so a reader sees a write before its
 * request is answered. Registry.follow() is the way in. A follower interested in some objects only names them with
 * `keep`, which sees the stored key and text and the change's type: the others are never decoded, so a follower does
 * not hold a parsed copy of a whole collection it ignores, nor parse a change it has no use for.
 * A prefix over several revision sequences (`/` with --etcd-servers-overrides) is listed sequence by sequence, and a
 * change is new when it is past the list of its own sequence.
 *
 * When the store lost events before handing them over (etcd compacted them first), the collection is listed
 * again, as client-go's reflector relists after a 410 and its DeltaFIFO.Replace reports the difference: each
 * object the follower holds that the list lacks as DELETED (its last known state, as DeletedFinalStateUnknown
 * carries it), then every listed object as ADDED (a follower takes an ADDED of an object it holds as an update).
 * What the follower holds is what `held` answers; without it, the identity of each object handed over is kept here.
 * `decode` makes the objects handed over from the stored values (decodeStored, unless the follower needs less).
 */
import type { CollectionEvent, CollectionFollow } from "../api/client.ts";
import type { KubeObject } from "../api/types.ts";
import { type EventType, type KeyValue, sequenceOf, sequencesUnder, type Storage, type StorageEvent } from "../storage/storage.ts";
import type { WatchBroker } from "../watch/mod.ts";
import { decodeStored } from "./codec.ts";
import { logger } from "../log/mod.ts";

const log = logger("collection-follow");

/** A failed relist is tried again after this long, as kube's cacher restarts its ListAndWatch every second. */
const RELIST_RETRY_MS = 1000;

export async function followCollection(
  storage: Storage,
  broker: Pick<WatchBroker, "follow">,
  prefix: string,
  onEvent: (event: CollectionEvent) => void,
  keep: (kv: KeyValue, type: EventType) => boolean = () => true,
  held?: () => Iterable<KubeObject>,
  decode: (kv: KeyValue) => KubeObject = decodeStored,
): Promise<CollectionFollow> {
  const record = held ? undefined : new Map<string, KubeObject>();
  const deliver = (event: CollectionEvent) => {
    if (record) noteIdentity(record, event);
    try {
      onEvent(event);
    } catch (error) {
      // A failing reader must not break the commit path that calls it.
      log.error(`watcher of ${prefix} failed`, error);
    }
  };
  const holding = held ?? (() => record!.values());
  let early: StorageEvent[] = [];
  let live = false;
  let stopped = false;
  /** Lists, reports what the follower holds that is gone, then every listed object and the changes since. */
  const list = async () => {
    const listedAt = new Map<Storage, number>();
    const listed: CollectionEvent[] = [];
    for (const sequence of sequencesUnder(storage, prefix)) {
      const range = await sequence.range(prefix);
      listedAt.set(sequence, range.revision);
      for (const kv of range.items) {
        // A sequence's own etcd may still hold keys that another sequence now serves (an override added later).
        if (keep(kv, "ADDED") && sequenceOf(storage, kv.key) === sequence) listed.push({ type: "ADDED", object: decode(kv), key: kv.key });
      }
    }
    const present = new Set(listed.map((event) => event.object.metadata.uid));
    for (const object of [...holding()]) if (!present.has(object.metadata.uid)) deliver({ type: "DELETED", object });
    for (const event of listed) deliver(event);
    for (const event of early) {
      if (event.revision > listedAt.get(sequenceOf(storage, event.kv.key))!) deliver(changeOf(event, decode));
    }
    early = [];
    live = true;
  };
  let relisting: Promise<void> | undefined;
  let relistAgain = false;
  const relist = async () => {
    while (!stopped) {
      relistAgain = false;
      live = false;
      try {
        await list();
        if (!relistAgain) return;
      } catch (error) {
        log.error(`listing ${prefix} again after lost watch history failed`, error);
        await new Promise((resolve) => setTimeout(resolve, RELIST_RETRY_MS));
      }
    }
  };
  // Follow before listing so nothing committed in between is missed.
  const unsubscribe = broker.follow(
    prefix,
    (event) => {
      if (!keep(event.kv, event.type)) return;
      if (live) deliver(changeOf(event, decode));
      else early.push(event);
    },
    () => {
      relistAgain = true;
      relisting ??= relist().finally(() => (relisting = undefined));
    },
  );
  try {
    await list();
  } catch (error) {
    unsubscribe();
    throw error;
  }
  return {
    stop: () => {
      stopped = true;
      unsubscribe();
    },
  };
}

function changeOf(event: StorageEvent, decode: (kv: KeyValue) => KubeObject): CollectionEvent {
  return { type: event.type, object: decode(event.kv), key: event.kv.key };
}

/** Keeps what a DELETED event needs of each object handed over: its identity, not the whole object. */
function noteIdentity(record: Map<string, KubeObject>, event: CollectionEvent): void {
  const { apiVersion, kind, metadata: { uid, namespace, name } } = event.object;
  const key = String(uid);
  if (event.type === "DELETED") record.delete(key);
  else record.set(key, { apiVersion, kind, metadata: namespace === undefined ? { uid, name } : { uid, namespace, name } });
}
