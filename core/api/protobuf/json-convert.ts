/**
 * Converts between decoded protobuf messages and kube's JSON shape, driven by the cached message plans:
 * JSON names, inline embeds, Go's omitempty for scalars, base64 bytes, int64 as numbers, special types.
 */
import { newMalformedProtobuf } from "./codec-errors.ts";
import { type FieldPlan, planOf } from "./message-plans.ts";
import { base64ToBytes, bytesToBase64, int64FromJson, int64ToJson, isZeroScalar } from "./_scalars.ts";
import type { NestedConversions } from "./_special-type.ts";

type Message = Record<string, unknown>;

const nested: NestedConversions = { toJson: messageToJson, fromJson: messageFromJson };

function valueToJson(field: FieldPlan, value: unknown): unknown {
  switch (field.kind) {
    case "int64":
      return int64ToJson(value);
    case "bytes":
      return bytesToBase64(value as Uint8Array);
    case "message":
      return messageToJson(field.message!, value as Message);
    default:
      return value;
  }
}

function writeFieldToJson(out: Message, field: FieldPlan, message: Message): void {
  const value = message[field.proto];
  if (field.repeated) {
    if ((value as unknown[]).length > 0) out[field.json] = (value as unknown[]).map((item) => valueToJson(field, item));
  } else if (field.map) {
    // Go's encoding/json writes map keys sorted.
    const keys = Object.keys(value as Message).sort();
    if (keys.length === 0) return;
    const entries: Message = {};
    for (const key of keys) entries[key] = valueToJson(field, (value as Message)[key]);
    out[field.json] = entries;
  } else if (Object.hasOwn(message, field.proto)) {
    if (field.kind === "inline") {
      Object.assign(out, messageToJson(field.message!, value as Message));
      return;
    }
    const converted = valueToJson(field, value);
    if (field.kind === "message" || field.keepZero || !isZeroScalar(converted)) out[field.json] = converted;
  }
}

/** A decoded protobufjs message of `messageName` as kube's JSON value. */
export function messageToJson(messageName: string, message: Message): unknown {
  const plan = planOf(messageName);
  if (plan.special) return plan.special.toJson(message, nested, messageName);
  if (plan.list) return message.items;
  const out: Message = {};
  for (const field of plan.fields) writeFieldToJson(out, field, message);
  return out;
}

function valueFromJson(field: FieldPlan, value: unknown): unknown {
  switch (field.kind) {
    case "int64":
      return int64FromJson(value);
    case "bytes":
      if (typeof value !== "string") throw newMalformedProtobuf(`${field.json}: expected a base64 string`);
      return base64ToBytes(value);
    case "message":
      return messageFromJson(field.message!, value) ?? {};
    default:
      return value;
  }
}

function writeFieldFromJson(out: Message, field: FieldPlan, object: Message): void {
  if (field.kind === "inline") {
    const embedded = messageFromJson(field.message!, object);
    if (embedded !== undefined && Object.keys(embedded).length > 0) out[field.proto] = embedded;
    return;
  }
  const value = object[field.json];
  if (value === undefined) return;
  if (field.repeated) {
    if (Array.isArray(value)) out[field.proto] = value.map((item) => valueFromJson(field, item));
  } else if (field.map) {
    if (value === null) return;
    const entries: Message = {};
    for (const [key, item] of Object.entries(value as Message)) entries[key] = valueFromJson(field, item);
    out[field.proto] = entries;
  } else if (field.kind === "message") {
    const converted = messageFromJson(field.message!, value);
    if (converted !== undefined) out[field.proto] = converted;
  } else if (value !== null) {
    out[field.proto] = valueFromJson(field, value);
  }
}

/** kube's JSON value of `messageName` as a plain object protobufjs can encode; undefined for JSON null. */
export function messageFromJson(messageName: string, value: unknown): Message | undefined {
  const plan = planOf(messageName);
  if (plan.special) return plan.special.fromJson(value, nested, messageName);
  if (value === null) return undefined;
  if (plan.list) return { items: value };
  if (typeof value !== "object" || Array.isArray(value)) {
    throw newMalformedProtobuf(`expected an object for ${messageName}, got ${JSON.stringify(value)}`);
  }
  const out: Message = {};
  for (const field of plan.fields) writeFieldFromJson(out, field, value as Message);
  return out;
}
