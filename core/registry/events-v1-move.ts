/**
 * Moves events.k8s.io Events that an older kubun kept under their own keys (`/events.k8s.io/events/<ns>/<name>`)
 * into the one Event collection both groups now serve (`/core/events/<ns>/<name>`, keys.ts storageGroupOf), as
 * core/v1 Events (coreEventFromEventsV1): left where they were, neither group would list them and --event-ttl, which
 * sweeps `/core/events/`, would never delete them.
 *
 * It runs at start, before anything is served, through the Storage contract: so the values read are decrypted as
 * they were written, either backend (SQLite, or etcd where the old keys are `events.k8s.io/events/...` below the
 * prefix) is handled alike, and the storage layer does not learn the registry's conversion. The contract writes one
 * key at a time, so instead of one transaction each step leaves a state the next start finishes from: the copy is
 * written first, the old key deleted after, both conditional on the revisions read. A process killed in between finds
 * both keys again and the copy is the newer. With no old key left a start costs one empty range read.
 *
 * The moved Event is a write of its own: it gets a new resourceVersion (the store's next revision), keeping its uid,
 * creationTimestamp and the rest of its metadata. Where a core Event of the same namespace/name exists the one
 * written last wins (the higher modRevision, when both keys are in one revision sequence; with Events on an etcd
 * of their own, --etcd-servers-overrides, revisions do not compare and the core Event, what clients of both groups
 * have been reading since the upgrade, is kept) and the other is dropped.
 */
import type { KubeObject } from "../api/types.ts";
import { logger } from "../log/mod.ts";
import { isStorageError, type KeyValue, sequenceOf, type Storage } from "../storage/storage.ts";
import { coreEventFromEventsV1 } from "./conversion/mod.ts";
import { collectionPrefix } from "./keys.ts";

const log = logger("events-v1-move");

/** Where an older kubun kept events.k8s.io Events: the key its registry built from the group's own name. */
export const OLD_EVENTS_V1_PREFIX = "/events.k8s.io/events/";

const CORE_EVENTS_PREFIX = collectionPrefix({ group: "", resource: "events", namespaced: true }, "");

const PAGE = 500;

/** Moves every old-key Event; answers how many it moved or dropped. */
export async function moveOldEventsV1Keys(storage: Storage): Promise<number> {
  let handled = 0;
  let startAfter: string | undefined;
  for (;;) {
    const page = await storage.range(OLD_EVENTS_V1_PREFIX, { startAfter, limit: PAGE, skipRemaining: true });
    for (const old of page.items) if (await moveOne(storage, old)) handled++;
    if (page.items.length < PAGE) break;
    startAfter = page.items[page.items.length - 1]!.key;
  }
  if (handled > 0) log.info(`moved ${handled} events.k8s.io Events from ${OLD_EVENTS_V1_PREFIX} into ${CORE_EVENTS_PREFIX}`);
  return handled;
}

async function moveOne(storage: Storage, old: KeyValue): Promise<boolean> {
  const coreKey = CORE_EVENTS_PREFIX + old.key.slice(OLD_EVENTS_V1_PREFIX.length);
  let converted: string;
  try {
    converted = JSON.stringify(coreEventFromEventsV1(JSON.parse(old.value) as KubeObject));
  } catch (error) {
    log.error(`left ${old.key} where it is: its value is not an Event`, error);
    return false;
  }
  const existing = await storage.get(coreKey);
  if (existing === null) {
    await ignoring("KeyExists", storage.write({ op: "create", key: coreKey, value: converted }));
  } else if (oldIsNewer(storage, old, existing)) {
    await ignoring("Conflict", storage.write({ op: "update", key: coreKey, value: converted, expectedRevision: existing.modRevision }));
  }
  // Another kubun on the same store may have moved it already, or rewritten it since (it then moves it itself).
  await ignoring("NotFound", ignoring("Conflict", storage.write({ op: "delete", key: old.key, expectedRevision: old.modRevision })));
  return true;
}

function oldIsNewer(storage: Storage, old: KeyValue, existing: KeyValue): boolean {
  return sequenceOf(storage, old.key) === sequenceOf(storage, existing.key) && old.modRevision > existing.modRevision;
}

/** A conditional write that lost to another writer: that writer's outcome stands. */
async function ignoring(code: "KeyExists" | "Conflict" | "NotFound", write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (error) {
    if (!isStorageError(error, code)) throw error;
  }
}
