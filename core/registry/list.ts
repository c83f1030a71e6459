/** Lists one collection at one revision, filtered, in pages (kube's etcd3 store GetList). */
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

export interface ListPage {
  list: KubeList;
  /** Storage key of the last item returned when more remain, else undefined. */
  lastKey?: string;
  remainingItemCount?: number;
}

/** Items decoded per turn, so a large list shares the event loop with health checks and other clients. */
const DECODED_PER_TURN = 500;

/**
 * A batch decoded (and converted) DECODED_PER_TURN items at a time, so a large list shares the event loop; a custom
 * resource list past that size goes to its conversion webhook in several ConversionReviews.
 */
async function decodeInTurns(store: ResourceStore, kvs: KeyValue[]): Promise<KubeObject[]> {
  const objects: KubeObject[] = [];
  for (let start = 0; start < kvs.length; start += DECODED_PER_TURN) {
    if (start > 0) await takeTurn();
    objects.push(...await store.decodeAll(kvs.slice(start, start + DECODED_PER_TURN)));
  }
  return objects;
}

/** Reads batches until `limit` matching items are found or the collection ends, all at one revision. */
export async function listObjects(store: ResourceStore, query: ListQuery): Promise<ListPage> {
  const prefix = collectionPrefix(store.type, query.namespace);
  const items: KubeObject[] = [];
  let startAfter = query.startAfter;
  let revision = query.revision;
  let lastKey: string | undefined;
  let remaining = 0;
  for (;;) {
    const batchSize = query.limit > 0 ? Math.max(query.limit - items.length, query.matches ? 100 : 0) : 0;
    const result = await store.range(prefix, { revision, startAfter, limit: batchSize });
    revision = result.revision;
    remaining = result.remaining;
    let consumed = 0;
    const objects = await decodeInTurns(store, result.items);
    for (const [i, kv] of result.items.entries()) {
      consumed++;
      const obj = objects[i]!;
      if (query.matches && !query.matches(obj)) continue;
      items.push(obj);
      lastKey = kv.key;
      if (query.limit > 0 && items.length === query.limit) break;
    }
    remaining += result.items.length - consumed;
    const full = query.limit > 0 && items.length === query.limit;
    if (full || remaining === 0 || result.items.length === 0) break;
    startAfter = result.items[result.items.length - 1].key;
  }
  const list: KubeList = {
    kind: store.type.listKind,
    apiVersion: apiVersionOf(store.type.group, store.type.version),
    metadata: { resourceVersion: String(revision) },
    items,
  };
  const page: ListPage = { list };
  if (query.limit > 0 && remaining > 0 && lastKey !== undefined) {
    page.lastKey = lastKey;
    if (!query.matches) page.remainingItemCount = remaining;
  }
  return page;
}
