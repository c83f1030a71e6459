/**
 * metav1.Time and MicroTime: messages on the wire, RFC 3339 strings in kube's JSON.
 * Time keeps whole seconds (kube's Time.Unmarshal drops nanos); a zero time is an empty message and JSON null.
 */
import { newMalformedProtobuf } from "./codec-errors.ts";
import { int64ToNumber } from "./_scalars.ts";
import type { SpecialType } from "./_special-type.ts";

type Message = Record<string, unknown>;

function isEmpty(message: Message): boolean {
  return !Object.hasOwn(message, "seconds") && !Object.hasOwn(message, "nanos");
}

function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19);
}

function parseTimestamp(value: unknown): { seconds: number; nanos: number } {
  const match = typeof value === "string" ? /^[^.]*(?:\.(\d{1,9}))?/.exec(value) : null;
  const millis = typeof value === "string" ? Date.parse(value) : Number.NaN;
  if (match === null || Number.isNaN(millis)) throw newMalformedProtobuf(`invalid time ${JSON.stringify(value)}`);
  const nanos = match[1] === undefined ? 0 : Number(match[1].padEnd(9, "0"));
  return { seconds: Math.floor(millis / 1000), nanos };
}

export const TIME: SpecialType = {
  toJson: (message) => (isEmpty(message) ? null : `${isoSeconds(int64ToNumber(message.seconds ?? 0))}Z`),
  fromJson: (value) => (value === null ? {} : { seconds: parseTimestamp(value).seconds }),
};

export const MICRO_TIME: SpecialType = {
  toJson(message) {
    if (isEmpty(message)) return null;
    const micros = String(Math.floor(Number(message.nanos ?? 0) / 1000)).padStart(6, "0");
    return `${isoSeconds(int64ToNumber(message.seconds ?? 0))}.${micros}Z`;
  },
  fromJson(value) {
    if (value === null) return {};
    const { seconds, nanos } = parseTimestamp(value);
    return { seconds, nanos: nanos - (nanos % 1000) };
  },
};
