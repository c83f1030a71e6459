/**
 * Compact JSON of a kind served as stored is answered with the stored text and its resourceVersion put in, not
 * parsed and serialized again (as kube's cachingObject keeps an object's encoding rather than encoding it per
 * request). GET and create answer so; Table, YAML, protobuf, pretty output and converted kinds go the usual way.
 */
import type { KeyValue } from "../../storage/storage.ts";
import { storedTextWithVersion } from "../../registry/codec.ts";
import { respondJsonText } from "../respond.ts";
import type { HandlerContext } from "./context.ts";

export function servesStoredText(ctx: HandlerContext): boolean {
  return ctx.encode.representation.format === "json" && !ctx.encode.pretty && !ctx.store.convertsOnRead;
}

export function respondStoredText(kv: KeyValue, status: number): Response {
  return respondJsonText(storedTextWithVersion(kv), status);
}
