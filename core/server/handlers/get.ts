/** GET of one object (spec 4.5 get table: unset = latest, "0" = any, other = not older than). */
import { newBadRequest } from "../../api/errors.ts";
import { waitForRevision } from "../../registry/freshness.ts";
import { respondObject } from "../respond.ts";
import type { HandlerContext } from "./context.ts";

export function parseResourceVersion(value: string): number {
  if (!/^\d+$/.test(value)) throw newBadRequest(`invalid resource version: ${value}`);
  return Number(value);
}

export async function handleGet(ctx: HandlerContext): Promise<Response> {
  const rv = ctx.url.searchParams.get("resourceVersion") ?? "";
  if (rv !== "" && rv !== "0") await waitForRevision(ctx.storage, parseResourceVersion(rv));
  const obj = await ctx.store.get(ctx.info.namespace, ctx.info.name);
  return respondObject(obj, 200, ctx.encode);
}
