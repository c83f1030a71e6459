/**
 * A protobuf wire writer for the fixtures, independent of protobufjs and the codec: fields are written in the order
 * given, each as tag (field number << 3 | wire type) then varint or length-delimited bytes (protobuf encoding spec).
 */

export type Field = Uint8Array;

function varintBytes(value: bigint): number[] {
  // Negative int32/int64 values are written as 10-byte two's complement varints.
  let rest = value < 0n ? (1n << 64n) + value : value;
  const out: number[] = [];
  do {
    const low = Number(rest & 0x7fn);
    rest >>= 7n;
    out.push(rest === 0n ? low : low | 0x80);
  } while (rest !== 0n);
  return out;
}

const tag = (field: number, wireType: number) => varintBytes(BigInt(field * 8 + wireType));

export function varint(field: number, value: number | bigint | boolean): Field {
  return new Uint8Array([...tag(field, 0), ...varintBytes(BigInt(typeof value === "boolean" ? Number(value) : value))]);
}

export function bytes(field: number, value: Uint8Array): Field {
  return new Uint8Array([...tag(field, 2), ...varintBytes(BigInt(value.length)), ...value]);
}

export const str = (field: number, value: string): Field => bytes(field, new TextEncoder().encode(value));

export function concat(...fields: Field[]): Uint8Array {
  const out = new Uint8Array(fields.reduce((size, field) => size + field.length, 0));
  let at = 0;
  for (const field of fields) {
    out.set(field, at);
    at += field.length;
  }
  return out;
}

/** An embedded message: its fields, length-delimited. */
export const msg = (field: number, ...fields: Field[]): Field => bytes(field, concat(...fields));

/** One map entry: key is field 1, value field 2 (protobuf's map encoding). */
export const entry = (field: number, key: string, value: Field): Field => msg(field, str(1, key), value);
export const stringEntry = (field: number, key: string, value: string): Field => entry(field, key, str(2, value));

/** metav1.Time: a Timestamp of whole seconds since the epoch (kube's Time keeps seconds). */
export const time = (field: number, rfc3339: string): Field => msg(field, varint(1, Date.parse(rfc3339) / 1000));

/** kube's storage envelope: "k8s\0" then runtime.Unknown{typeMeta(1){apiVersion(1), kind(2)}, raw(2), contentEncoding(3), contentType(4)}. */
export function envelope(apiVersion: string, kind: string, ...objectFields: Field[]): Uint8Array {
  const unknown = concat(
    msg(1, str(1, apiVersion), str(2, kind)),
    bytes(2, concat(...objectFields)),
    str(3, ""),
    str(4, ""),
  );
  return concat(new Uint8Array([0x6b, 0x38, 0x73, 0x00]), unknown);
}
