/**
 * A protobuf list in parts, for writing it item by item: kube's list messages hold `ListMeta metadata = 1` and
 * `repeated <Item> items = 2`, wrapped in the runtime.Unknown envelope whose `raw` (field 2) is length-prefixed,
 * so the envelope's head needs the items' total size first. Together the parts are exactly encodeProtobufObject's
 * bytes of the whole list.
 */
import { PROTOBUF_MAGIC } from "./codec.ts";
import { newUnknownProtobufKind } from "./codec-errors.ts";
import { messageFromJson } from "./json-convert.ts";
import { messageNameOfKind, planOf } from "./message-plans.ts";

const UNKNOWN_TYPE_META = 0x0a;
const UNKNOWN_RAW = 0x12;
/** contentEncoding (3) and contentType (4), empty: kube's Unknown always writes its string fields. */
const UNKNOWN_TAIL = new Uint8Array([0x1a, 0x00, 0x22, 0x00]);
const LIST_ITEMS = 0x12;

function varint(value: number): number[] {
  const bytes: number[] = [];
  for (; value >= 0x80; value = Math.floor(value / 0x80)) bytes.push((value % 0x80) | 0x80);
  bytes.push(value);
  return bytes;
}

function lengthDelimited(tag: number, body: Uint8Array): Uint8Array {
  const head = [tag, ...varint(body.length)];
  const out = new Uint8Array(head.length + body.length);
  out.set(head);
  out.set(body, head.length);
  return out;
}

function encodeMessage(messageName: string, value: unknown): Uint8Array {
  return planOf(messageName).type.encode(messageFromJson(messageName, value) ?? {}).finish();
}

export interface ProtobufListParts {
  /** One item's bytes inside the list message (its items field). */
  item(obj: Record<string, unknown>): Uint8Array;
  /** The magic and the envelope up to the items, given the items' total size in bytes. */
  head(itemBytes: number): Uint8Array;
  tail: Uint8Array;
}

/** The parts of `list` (its items are ignored) as kind `listKind` of `apiVersion`. */
export function protobufListParts(list: Record<string, unknown>, apiVersion: string, listKind: string): ProtobufListParts {
  const listMessage = messageNameOfKind(apiVersion, listKind);
  const itemMessage = messageNameOfKind(apiVersion, listKind.replace(/List$/, ""));
  if (listMessage === undefined || itemMessage === undefined) throw newUnknownProtobufKind(apiVersion, listKind);
  const listMeta = encodeMessage(listMessage, { ...list, items: [] });
  const typeMeta = lengthDelimited(
    UNKNOWN_TYPE_META,
    encodeMessage("k8s.io.apimachinery.pkg.runtime.TypeMeta", { apiVersion, kind: listKind }),
  );
  return {
    item: (obj) => lengthDelimited(LIST_ITEMS, encodeMessage(itemMessage, obj)),
    head(itemBytes) {
      const raw = [UNKNOWN_RAW, ...varint(listMeta.length + itemBytes)];
      const out = new Uint8Array(PROTOBUF_MAGIC.length + typeMeta.length + raw.length + listMeta.length);
      out.set(PROTOBUF_MAGIC);
      out.set(typeMeta, PROTOBUF_MAGIC.length);
      out.set(raw, PROTOBUF_MAGIC.length + typeMeta.length);
      out.set(listMeta, PROTOBUF_MAGIC.length + typeMeta.length + raw.length);
      return out;
    },
    tail: UNKNOWN_TAIL,
  };
}
