/** Lists one collection at one revision, filtered, in batches (kube's etcd3 store GetList). */
import { takeTurn } from "../api/turns.ts";
import { apiVersionOf, type KubeList, type KubeObject } from "../api/types.ts";
import type { KeyValue } from "../storage/storage.ts";
import { collectionPrefix } from "./keys.ts";
import type { ResourceStore } from "./store.ts";

export interface ListQuery {
  namespace: string;
  /** Read at this revision; 0 = latest. */
  revision: number;
  /** Items per page; 0 = everything. */
  limit: number;
  /** Continue after this storage key. */
  startAfter?: string;
  /** Label/field selection; absent = everything (then remainingItemCount is reported). */
  matches?: (obj: KubeObject) => boolean;
}

/** One listed object: its stored key-value, and the decoded object when the reader asked for it or a selector needed it. */
export interface ListedItem {
  kv: KeyValue;
  object?: KubeObject;
}

/** The matching items of one batch of keys; every batch of one list is read at the same revision. */
export interface ListedBatch {
  revision: number;
  items: ListedItem[];
}

/** Where a list with a limit stopped, when more keys remain after it. */
export interface ListEnd {
  /** Storage key of the last item returned. */
  lastKey?: string;
  /** Keys after it; absent under a selector, as kube reports it only for unfiltered lists. */
  remainingItemCount?: number;
}

export interface ListPage {
  list: KubeList;
  /** Storage key of the last item returned when more remain, else undefined. */
  lastKey?: string;
  remainingItemCount?: number;
}

/**
 * Keys read, decoded and handed on per batch, one batch per event-loop turn: a large list shares the loop with
 * health checks and other clients, and a streamed response holds one batch in memory, not the list.
 */
const BATCH_KEYS = 500;
/** Under a selector a small limit still reads this many keys per batch, as kube's GetList grows its reads. */
const SELECTED_BATCH_KEYS = 100;

/**
 * The list's matching items batch by batch, all at the revision of the first read; the return value says where a
 * limited list stopped. Objects are decoded (and converted) when `decode` asks or a selector needs them.
 */
export async function* readListBatches(
  store: ResourceStore,
  query: ListQuery,
  decode: boolean,
): AsyncGenerator<ListedBatch, ListEnd> {
  const prefix = collectionPrefix(store.type, query.namespace);
  const mustDecode = decode || query.matches !== undefined;
  let startAfter = query.startAfter;
  let revision = query.revision;
  let found = 0;
  for (let first = true;; first = false) {
    if (!first) await takeTurn();
    const wanted = query.limit > 0 ? query.limit - found : BATCH_KEYS;
    const batchSize = Math.min(BATCH_KEYS, Math.max(wanted, query.matches ? SELECTED_BATCH_KEYS : 0));
    const read = await store.range(prefix, { revision, startAfter, limit: batchSize, skipRemaining: true });
    revision = read.revision;
    const objects = mustDecode ? await store.decodeAll(read.items) : undefined;
    const items: ListedItem[] = [];
    let consumed = 0;
    for (const [i, kv] of read.items.entries()) {
      consumed++;
      const object = objects?.[i];
      if (query.matches && !query.matches(object!)) continue;
      items.push({ kv, object });
      found++;
      if (found === query.limit) break;
    }
    yield { revision, items };
    const lastRead = read.items.length < batchSize ? undefined : read.items[read.items.length - 1]!.key;
    if (found === query.limit && found > 0) {
      return await limitedEnd(store, prefix, revision, items, read.items.length - consumed, lastRead, query.matches !== undefined);
    }
    if (lastRead === undefined) return {};
    startAfter = lastRead;
  }
}

/** The continue point of a full page: the keys left unread in its last batch plus those after that batch, counted once. */
async function limitedEnd(
  store: ResourceStore,
  prefix: string,
  revision: number,
  items: ListedItem[],
  unconsumed: number,
  lastRead: string | undefined,
  selected: boolean,
): Promise<ListEnd> {
  let remaining = unconsumed;
  if (lastRead !== undefined) {
    const after = await store.range(prefix, { revision, startAfter: lastRead, limit: 1 });
    remaining += after.items.length + after.remaining;
  }
  if (remaining === 0) return {};
  return { lastKey: items[items.length - 1]!.kv.key, remainingItemCount: selected ? undefined : remaining };
}

/**
 * Whether a list's items are written with their apiVersion and kind: a custom resource's UnstructuredList keeps
 * each item's, a built-in kind's typed list has none on its items (api/types.ts withoutTypeMeta).
 */
export type ItemTypeMeta = "kept" | "omitted";

export function itemTypeMetaOf(store: ResourceStore): ItemTypeMeta {
  return store.definition.extension ? "kept" : "omitted";
}

/** The list's envelope at a revision, without items. */
export function listEnvelope(store: ResourceStore, revision: number): KubeList {
  return {
    kind: store.type.listKind,
    apiVersion: apiVersionOf(store.type.group, store.type.version),
    metadata: { resourceVersion: String(revision) },
    items: [],
  };
}

/** The whole page decoded in memory, for the server's own readers (controllers, admission, watch's initial state). */
export async function listObjects(store: ResourceStore, query: ListQuery): Promise<ListPage> {
  const batches = readListBatches(store, query, true);
  const items: KubeObject[] = [];
  let revision = query.revision;
  for (;;) {
    const next = await batches.next();
    if (next.done) {
      const page: ListPage = { list: { ...listEnvelope(store, revision), items } };
      if (next.value.lastKey !== undefined) page.lastKey = next.value.lastKey;
      if (next.value.remainingItemCount !== undefined) page.remainingItemCount = next.value.remainingItemCount;
      return page;
    }
    revision = next.value.revision;
    for (const item of next.value.items) items.push(item.object!);
  }
}
