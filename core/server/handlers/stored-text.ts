/**
 * Compact JSON of a kind served as stored is answered with the stored text and its resourceVersion put in, not
 * parsed and serialized again (as kube's cachingObject keeps an object's encoding rather than encoding it per
 * request). GET and create answer so; Table, YAML, protobuf, pretty output and converted kinds go the usual way.
 */
import type { KeyValue } from "../../storage/storage.ts";
import { storedTextWithVersion } from "../../registry/codec.ts";
import { respondJsonLine } from "../respond.ts";
import type { HandlerContext } from "./context.ts";

/**
 * Each stored version's answer text, made once: the storage answers a GET of an unchanged object with the same
 * KeyValue (sqlite/current-rows.ts), so the next GET writes the same flat string instead of splicing the text again.
 */
const answerTexts = new WeakMap<KeyValue, string>();

export function servesStoredText(ctx: HandlerContext): boolean {
  return ctx.encode.representation.format === "json" && !ctx.encode.pretty && !ctx.store.convertsOnRead;
}

export function respondStoredText(kv: KeyValue, status: number): Response {
  // A create's KeyValue is new and answered once: a look-up would miss, and its text is kept when a GET answers it.
  if (status === CREATED) return respondJsonLine(answerText(kv), status);
  let text = answerTexts.get(kv);
  if (text === undefined) {
    text = answerText(kv);
    answerTexts.set(kv, text);
  }
  return respondJsonLine(text, status);
}

const CREATED = 201;

function answerText(kv: KeyValue): string {
  return `${storedTextWithVersion(kv)}\n`;
}
