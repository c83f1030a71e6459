/** GET of one object (spec 4.5 get table: unset = latest, "0" = any, other = not older than). */
import { parseResourceVersion } from "../../api/list-options.ts";
import { waitForRevision } from "../../registry/freshness.ts";
import { respondObject } from "../respond.ts";
import type { HandlerContext } from "./context.ts";
import { respondStoredText, servesStoredText } from "./stored-text.ts";

export async function handleGet(ctx: HandlerContext): Promise<Response> {
  const rv = ctx.url.searchParams.get("resourceVersion") ?? "";
  // kube's APIObjectVersioner.ParseResourceVersion, as for lists and watches.
  const revision = parseResourceVersion(rv);
  if (revision > 0) await waitForRevision(ctx.storage, revision);
  if (servesStoredText(ctx)) return respondStoredText(await ctx.store.getStored(ctx.info.namespace, ctx.info.name), 200);
  const obj = await ctx.store.get(ctx.info.namespace, ctx.info.name);
  return respondObject(obj, 200, ctx.encode);
}
