/** The field manager a write is recorded under: `?fieldManager=`, else the User-Agent's program name (kube's managerOrUserAgent). */
import { fieldManagerFromUserAgent } from "../../apply/ssa/mod.ts";
import type { HandlerContext } from "./context.ts";

export function writerFieldManager(ctx: HandlerContext, query: { fieldManager?: string }): string {
  return query.fieldManager ?? fieldManagerFromUserAgent(ctx.request.headers.get("user-agent"));
}
