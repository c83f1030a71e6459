/**
 * Timestamps that keep the offset they were written with, as cel-go 0.12's do (types.Timestamp wraps a Go time.Time;
 * String.ConvertToType parses with time.Parse(time.RFC3339), which keeps a fixed zone, and CRD date-time values come
 * through the same function here). The offset shows in `string(ts)` (Timestamp.ConvertToType: t.Format(RFC3339Nano))
 * and in the getters without a time zone (Timestamp.Receive hands them t.Time as it is), and survives `ts ± duration`
 * (time.Time.Add keeps the location). @bufbuild/cel keeps a timestamp as a UTC protobuf message, so kubun notes the
 * offset beside each message and answers those calls itself.
 */
import { celEnv, celFunc, celMethod, type CelResult, CelScalar, celType, type CelValue, isCelError, parse, plan } from "@bufbuild/cel";
import { celAdd, celSubtract } from "./_cel-ops.ts";

type TimestampValue = { message: { seconds: bigint; nanos: number } };

const std = celEnv();
const stdTimestamp = plan(std, parse("timestamp(text)"));

/** The value of a standard-library result; its error's message thrown, which @bufbuild/cel turns back into a CEL error. */
function valueOf(result: CelResult): CelValue {
  if (isCelError(result)) throw new Error(result.message);
  return result;
}

const TIMESTAMP = celType(valueOf(stdTimestamp({ text: "1970-01-01T00:00:00Z" } as never)));
const DURATION = celType(valueOf(plan(std, parse("duration('0s')"))({} as never)));

/** Seconds east of UTC of each timestamp that has an offset other than zero, by its message. */
const offsets = new WeakMap<object, number>();

function offsetOf(value: CelValue): number {
  return offsets.get((value as unknown as TimestampValue).message) ?? 0;
}

function withOffset(value: CelValue, seconds: number): CelValue {
  if (seconds !== 0) offsets.set((value as unknown as TimestampValue).message, seconds);
  return value;
}

/** timestamp(string): @bufbuild/cel's parse, with the written offset noted ("Z" and "+00:00" both mean none). */
function parseTimestamp(text: string): CelValue {
  const result = valueOf(stdTimestamp({ text } as never));
  const zone = /([+-])(\d{2}):(\d{2})$/.exec(text);
  const seconds = zone ? (zone[1] === "-" ? -1 : 1) * (Number(zone[2]) * 3600 + Number(zone[3]) * 60) : 0;
  return withOffset(result, seconds);
}

/** Go's time.Format(time.RFC3339Nano): local wall time, fraction without trailing zeros, "Z" for a zero offset. */
function formatRFC3339Nano(value: CelValue): string {
  const { seconds, nanos } = (value as unknown as TimestampValue).message;
  const offset = offsetOf(value);
  const wall = new Date((Number(seconds) + offset) * 1000).toISOString().slice(0, 19);
  const fraction = nanos === 0 ? "" : `.${String(nanos).padStart(9, "0").replace(/0+$/, "")}`;
  if (offset === 0) return `${wall}${fraction}Z`;
  const minutes = Math.abs(offset) / 60;
  const zone = `${offset < 0 ? "-" : "+"}${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
  return `${wall}${fraction}${zone}`;
}

const GETTERS = [
  "getFullYear",
  "getMonth",
  "getDayOfYear",
  "getDate",
  "getDayOfMonth",
  "getDayOfWeek",
  "getHours",
  "getMinutes",
  "getSeconds",
  "getMilliseconds",
];

/** A getter without a time zone reads the wall clock of the timestamp's own offset: UTC fields of the shifted instant. */
function localGetter(name: string) {
  const program = plan(std, parse(`(t + duration(shift)).${name}()`));
  return celMethod(name, TIMESTAMP, [], CelScalar.INT, function () {
    return valueOf(program({ t: this, shift: `${offsetOf(this)}s` } as never)) as bigint;
  });
}

export const timestampFunctions = [
  celFunc("timestamp", [CelScalar.STRING], TIMESTAMP, parseTimestamp),
  celFunc("string", [TIMESTAMP], CelScalar.STRING, formatRFC3339Nano),
  celFunc("_+_", [TIMESTAMP, DURATION], TIMESTAMP, (t, d) => withOffset(celAdd(t, d), offsetOf(t))),
  celFunc("_+_", [DURATION, TIMESTAMP], TIMESTAMP, (d, t) => withOffset(celAdd(d, t), offsetOf(t))),
  celFunc("_-_", [TIMESTAMP, DURATION], TIMESTAMP, (t, d) => withOffset(celSubtract(t, d), offsetOf(t))),
  ...GETTERS.map(localGetter),
];
