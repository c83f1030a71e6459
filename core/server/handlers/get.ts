/** GET of one object (spec 4.5 get table: unset = latest, "0" = any, other = not older than). */
import { newTooLargeResourceVersion } from "../../api/errors.ts";
import { parseResourceVersion } from "../../api/list-options.ts";
import { waitForRevision } from "../../registry/freshness.ts";
import { respondObject } from "../respond.ts";
import type { HandlerContext } from "./context.ts";
import { respondStoredText, servesStoredText } from "./stored-text.ts";

/** Answers at once, without a promise, when the storage has the revision asked for and reads synchronously. */
export function handleGet(ctx: HandlerContext): Response | Promise<Response> {
  const rv = ctx.url.searchParams.get("resourceVersion") ?? "";
  // kube's APIObjectVersioner.ParseResourceVersion, as for lists and watches.
  const revision = parseResourceVersion(rv);
  if (ctx.store.definition.noWatchCache) {
    // The etcd3 store's Get does not wait: validateMinimumResourceVersion's 504, without a retry.
    const current = ctx.storage.currentRevision();
    if (revision > current) throw newTooLargeResourceVersion(revision, current, 0);
    return answer(ctx);
  }
  const fresh = revision > 0 ? waitForRevision(ctx.storage, revision) : undefined;
  return fresh ? fresh.then(() => answer(ctx)) : answer(ctx);
}

function answer(ctx: HandlerContext): Response | Promise<Response> {
  const { namespace, name } = ctx.info;
  if (!servesStoredText(ctx)) return ctx.store.get(namespace, name).then((obj) => respondObject(obj, 200, ctx.encode));
  const kv = ctx.store.getStored(namespace, name);
  return kv instanceof Promise ? kv.then((stored) => respondStoredText(stored, 200)) : respondStoredText(kv, 200);
}
