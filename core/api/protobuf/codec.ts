/**
 * kube's protobuf envelope: the magic `k8s\0` followed by a runtime.Unknown whose typeMeta names the kind and
 * whose raw holds the object's message (k8s.io/apimachinery/pkg/runtime/serializer/protobuf).
 */
import { messageFromJson, messageToJson } from "./json-convert.ts";
import { messageNameOfKind, planOf } from "./message-plans.ts";
import { newMalformedProtobuf, newUnknownProtobufKind } from "./codec-errors.ts";

export const PROTOBUF_MAGIC: Uint8Array = new Uint8Array([0x6b, 0x38, 0x73, 0x00]);

const UNKNOWN = "k8s.io.apimachinery.pkg.runtime.Unknown";

export interface DecodedObject {
  apiVersion: string;
  kind: string;
  /** The object as kube's JSON would carry it, apiVersion and kind included. */
  object: Record<string, unknown>;
}

/** Whether kube has a protobuf encoding for the kind (custom resources do not). */
export function hasProtobufEncoding(apiVersion: string, kind: string): boolean {
  return messageNameOfKind(apiVersion, kind) !== undefined;
}

function hasMagic(bytes: Uint8Array): boolean {
  return bytes.length >= PROTOBUF_MAGIC.length && PROTOBUF_MAGIC.every((byte, i) => bytes[i] === byte);
}

function decodeMessage(messageName: string, bytes: Uint8Array): Record<string, unknown> {
  try {
    return planOf(messageName).type.decode(bytes) as unknown as Record<string, unknown>;
  } catch (error) {
    throw newMalformedProtobuf(`unable to decode ${messageName}: ${(error as Error).message}`);
  }
}

/** A protobuf request body as `{ apiVersion, kind, object }`, the object shaped like kube's JSON. */
export function decodeProtobufObject(bytes: Uint8Array): DecodedObject {
  if (!hasMagic(bytes)) {
    throw newMalformedProtobuf("provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]");
  }
  const unknown = decodeMessage(UNKNOWN, bytes.subarray(PROTOBUF_MAGIC.length));
  const typeMeta = (unknown.typeMeta ?? {}) as { apiVersion?: string; kind?: string };
  const apiVersion = typeMeta.apiVersion ?? "";
  const kind = typeMeta.kind ?? "";
  if (unknown.contentEncoding) throw newMalformedProtobuf(`unsupported content encoding ${JSON.stringify(unknown.contentEncoding)}`);
  const messageName = messageNameOfKind(apiVersion, kind);
  if (messageName === undefined) throw newUnknownProtobufKind(apiVersion, kind);
  const message = decodeMessage(messageName, (unknown.raw as Uint8Array | undefined) ?? new Uint8Array());
  const object = { apiVersion, kind, ...(messageToJson(messageName, message) as Record<string, unknown>) };
  return { apiVersion, kind, object };
}

/** The protobuf encoding of a JSON-shaped object (list items encode as the item kind's message). */
export function encodeProtobufObject(obj: Record<string, unknown>, apiVersion: string, kind: string): Uint8Array {
  const messageName = messageNameOfKind(apiVersion, kind);
  if (messageName === undefined) throw newUnknownProtobufKind(apiVersion, kind);
  const raw = planOf(messageName).type.encode(messageFromJson(messageName, obj) ?? {}).finish();
  // kube's Unknown always writes its string fields, empty ones included.
  const envelope = { typeMeta: { apiVersion, kind }, raw, contentEncoding: "", contentType: "" };
  const unknown = planOf(UNKNOWN).type.encode(envelope).finish();
  const out = new Uint8Array(PROTOBUF_MAGIC.length + unknown.length);
  out.set(PROTOBUF_MAGIC);
  out.set(unknown, PROTOBUF_MAGIC.length);
  return out;
}
