/** Scalar helpers shared by the JSON ↔ protobuf conversions. */
import { Buffer } from "node:buffer";
import { parseJSONExact } from "../exact-integers.ts";

/** protobufjs decodes 64-bit integers as Long objects when the `long` package is present. */
interface LongLike {
  toNumber(): number;
  toString(): string;
}

function isLong(value: unknown): value is LongLike {
  return typeof value === "object" && value !== null && typeof (value as LongLike).toNumber === "function";
}

/** int64 as a JS number, as kube's JSON carries it. */
export function int64ToNumber(value: unknown): number {
  return isLong(value) ? value.toNumber() : Number(value);
}

/** int64 as its JSON value: a number, or a BigInt beyond 2^53 so it stays exact (api/exact-integers.ts). */
export function int64ToJson(value: unknown): number | bigint {
  const number = int64ToNumber(value);
  if (Number.isSafeInteger(number) || !isLong(value)) return number;
  return BigInt(value.toString());
}

/** A JSON int64 as protobufjs encodes it exactly: BigInts as decimal strings (it reads those through Long). */
export function int64FromJson(value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}

export function bytesToBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

export function base64ToBytes(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, "base64"));
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

export function jsonToBytes(value: unknown): Uint8Array {
  return utf8Encoder.encode(JSON.stringify(value));
}

/** Embedded raw JSON (RawExtension, FieldsV1, apiextensions JSON); empty means Go's nil, printed as null. */
export function bytesToJson(bytes: Uint8Array | undefined): unknown {
  if (bytes === undefined || bytes.length === 0) return null;
  return parseJSONExact(utf8Decoder.decode(bytes));
}

export function isZeroScalar(value: unknown): boolean {
  return value === "" || value === 0 || value === false;
}
