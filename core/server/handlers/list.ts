/** GET of a collection: the resourceVersion / resourceVersionMatch / paging rules of spec 4.5. */
import { encodeContinue, newContinueExpired } from "../../api/continue-token.ts";
import { type ListOptions, parseListOptions } from "../../api/list-options.ts";
import { newListTooOld, resolveListRead } from "../../api/list-read.ts";
import { collectionPrefix } from "../../registry/keys.ts";
import { listObjects, type ListPage } from "../../registry/list.ts";
import { respondList } from "../respond.ts";
import type { HandlerContext } from "./context.ts";
import { selectionOf } from "./selection.ts";

/** Reads the page the options ask for, at the revision the 4.5 table gives; the list carries its continue token. */
export async function readPage(ctx: HandlerContext, options: ListOptions): Promise<ListPage> {
  const storage = ctx.storage;
  const prefix = collectionPrefix(ctx.type, ctx.info.namespace);
  const read = resolveListRead(options, storage.currentRevision(), { keyPrefix: prefix });
  // latest, any and notOlderThan all read the current state, which is never stale here.
  let revision = read.mode === "exact" ? read.revision : 0;
  if (read.continueFrom && read.continueFrom.revision >= 0 && revision < storage.compactedRevision()) {
    throw newContinueExpired(read.continueFrom.startAfter, prefix);
  }
  if (!read.continueFrom && read.mode === "exact" && revision < storage.compactedRevision()) throw newListTooOld();
  if (read.continueFrom && read.continueFrom.revision < 0) revision = 0;
  const matches = selectionOf(ctx.store.definition, options.labelSelector, options.fieldSelector);
  const page = await listObjects(ctx.store, {
    namespace: ctx.info.namespace,
    revision,
    limit: options.limit,
    startAfter: read.continueFrom?.startAfter,
    matches,
  });
  if (page.lastKey !== undefined) {
    page.list.metadata.continue = encodeContinue(page.lastKey, prefix, Number(page.list.metadata.resourceVersion));
    // The RemainingItemCount gate (etcd3 store's GetList reports the count only with it).
    if (page.remainingItemCount !== undefined && ctx.services.remainingItemCount) {
      page.list.metadata.remainingItemCount = page.remainingItemCount;
    }
  }
  return page;
}

export async function handleList(ctx: HandlerContext): Promise<Response> {
  const { list } = await readPage(ctx, parseListOptions(ctx.url.searchParams));
  return respondList(list, ctx.encode);
}
