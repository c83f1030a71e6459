/** GET of a collection: the resourceVersion / resourceVersionMatch / paging rules of spec 4.5. */
import { encodeContinue, newContinueExpired } from "../../api/continue-token.ts";
import { type ListOptions, parseListOptions, parseResourceVersion } from "../../api/list-options.ts";
import { waitForRevision } from "../../registry/freshness.ts";
import { newListTooOld, resolveListRead } from "../../api/list-read.ts";
import type { ListMeta } from "../../api/types.ts";
import { collectionPrefix } from "../../registry/keys.ts";
import { type ListEnd, listObjects, type ListPage, type ListQuery } from "../../registry/list.ts";
import { respondListRead } from "../list-response.ts";
import { isStorageError } from "../../storage/storage.ts";
import type { HandlerContext } from "./context.ts";
import { selectionOf } from "./selection.ts";

/**
 * kube 1.26's cacher answers a list from its watch cache unless shouldDelegateList sends it to storage (no
 * resourceVersion, a continue token, a limit with a resourceVersion other than "0", or match Exact); kinds without
 * a watch cache (events) are always read from storage.
 */
function servedFromWatchCache(ctx: HandlerContext, options: ListOptions): boolean {
  if (ctx.store.definition.noWatchCache) return false;
  const { resourceVersion, resourceVersionMatch, limit } = options;
  return !(resourceVersion === "" || options.continue !== "" || (limit > 0 && resourceVersion !== "0") ||
    resourceVersionMatch === "Exact");
}

/**
 * From the cache, a resourceVersion the cache has not reached is waited for up to 3 s (WaitUntilFreshAndList)
 * before the 504.
 */
async function waitWhenServedFromCache(ctx: HandlerContext, options: ListOptions): Promise<void> {
  if (!servedFromWatchCache(ctx, options)) return;
  const requested = parseResourceVersion(options.resourceVersion);
  if (requested > 0) await waitForRevision(ctx.storage, requested);
}

/** The storage read the options ask for, at the revision the 4.5 table gives. */
function listQueryOf(ctx: HandlerContext, options: ListOptions): ListQuery {
  const storage = ctx.storage;
  const prefix = collectionPrefix(ctx.type, ctx.info.namespace);
  const fromWatchCache = servedFromWatchCache(ctx, options);
  const read = resolveListRead(options, storage.currentRevision(), { keyPrefix: prefix, fromWatchCache });
  // latest, any and notOlderThan all read the current state, which is never stale here.
  let revision = read.mode === "exact" ? read.revision : 0;
  if (read.continueFrom && read.continueFrom.revision >= 0 && revision < storage.compactedRevision()) {
    throw newContinueExpired(read.continueFrom.startAfter, prefix);
  }
  if (!read.continueFrom && read.mode === "exact" && revision < storage.compactedRevision()) throw newListTooOld();
  if (read.continueFrom && read.continueFrom.revision < 0) revision = 0;
  return {
    namespace: ctx.info.namespace,
    revision,
    // Cacher.GetList fills the list from the watch cache whole, ignoring the limit: no continue token, no
    // remainingItemCount (so a paging client given resourceVersion=0 gets everything in one answer).
    limit: fromWatchCache ? 0 : options.limit,
    startAfter: read.continueFrom?.startAfter,
    matches: selectionOf(ctx.store.definition, options.labelSelector, options.fieldSelector),
  };
}

/** The list's metadata: its revision and, when a page stopped early, the continue token for the rest. */
function listMetaOf(ctx: HandlerContext, revision: number, end: ListEnd): ListMeta {
  const metadata: ListMeta = { resourceVersion: String(revision) };
  if (end.lastKey === undefined) return metadata;
  metadata.continue = encodeContinue(end.lastKey, collectionPrefix(ctx.type, ctx.info.namespace), revision);
  // The RemainingItemCount gate (etcd3 store's GetList reports the count only with it).
  if (end.remainingItemCount !== undefined && ctx.services.remainingItemCount) {
    metadata.remainingItemCount = end.remainingItemCount;
  }
  return metadata;
}

/** Reads the page the options ask for, whole; the list carries its continue token. */
export async function readPage(ctx: HandlerContext, options: ListOptions): Promise<ListPage> {
  await waitWhenServedFromCache(ctx, options);
  const query = listQueryOf(ctx, options);
  const page = await expiredWhenCompacted(ctx, query, () => listObjects(ctx.store, query));
  page.list.metadata = listMetaOf(ctx, Number(page.list.metadata.resourceVersion), page);
  return page;
}

export async function handleList(ctx: HandlerContext): Promise<Response> {
  const options = parseListOptions(ctx.url.searchParams);
  await waitWhenServedFromCache(ctx, options);
  const query = listQueryOf(ctx, options);
  return await expiredWhenCompacted(
    ctx,
    query,
    () => respondListRead(ctx.store, query, ctx.encode, (revision, end) => listMetaOf(ctx, revision, end)),
  );
}

/**
 * A read the store finds compacted although the checks in listQueryOf passed (another server sharing etcd
 * compacted since this one last learned of it) answers 410 as those checks do: kube's interpretListError.
 */
async function expiredWhenCompacted<T>(ctx: HandlerContext, query: ListQuery, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!isStorageError(error, "Compacted")) throw error;
    if (query.startAfter !== undefined) throw newContinueExpired(query.startAfter, collectionPrefix(ctx.type, ctx.info.namespace));
    throw newListTooOld();
  }
}
