/**
 * Go's time.Parse errors for metav1.Time (RFC 3339) and metav1.MicroTime (RFC 3339 with six fraction
 * digits), so a malformed timestamp is refused with the text kube-apiserver answers.
 */

export const RFC3339 = "2006-01-02T15:04:05Z07:00";
export const RFC3339_MICRO = "2006-01-02T15:04:05.000000Z07:00";

type Element =
  | { literal: string }
  | { std: "year" | "month" | "day" | "hour" | "minute" | "second" | "micro" | "zone"; text: string };

const LAYOUTS: Record<string, Element[]> = {
  [RFC3339]: elements(false),
  [RFC3339_MICRO]: elements(true),
};

function elements(micro: boolean): Element[] {
  return [
    { std: "year", text: "2006" },
    { literal: "-" },
    { std: "month", text: "01" },
    { literal: "-" },
    { std: "day", text: "02" },
    { literal: "T" },
    { std: "hour", text: "15" },
    { literal: ":" },
    { std: "minute", text: "04" },
    { literal: ":" },
    { std: "second", text: "05" },
    ...(micro ? [{ std: "micro", text: ".000000" } as const] : []),
    { std: "zone", text: "Z07:00" },
  ];
}

const isDigit = (s: string, i: number): boolean => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

/** Go's getnum: one or two digits (exactly two when `fixed`). */
function twoDigits(s: string, fixed: boolean): { n: number; rest: string } | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : { n: Number(s[0]), rest: s.slice(1) };
  return { n: Number(s.slice(0, 2)), rest: s.slice(2) };
}

/** Go's time quote(): printable ASCII as is (with `"` and `\` escaped), other bytes as \xNN. */
function quote(s: string): string {
  let out = '"';
  for (const byte of new TextEncoder().encode(s)) {
    if (byte < 0x20 || byte >= 0x80) out += `\\x${byte.toString(16).padStart(2, "0")}`;
    else out += (byte === 0x22 || byte === 0x5c ? "\\" : "") + String.fromCharCode(byte);
  }
  return out + '"';
}

/** Go's time.isLeap (Date.UTC would read years 0-99 as 1900-1999, making year 0 common). */
const isLeap = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const DAYS_IN_COMMON_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Go's time.daysIn. */
const daysIn = (month: number, year: number): number => month === 2 && isLeap(year) ? 29 : DAYS_IN_COMMON_MONTH[month - 1]!;

/** Reads one element; answers the rest of the value, or a range error name, or undefined when it does not parse. */
function readStd(
  std: Element & { std: string },
  value: string,
  fields: Record<string, number>,
  layoutHasFraction: boolean,
): string | { range: string } | undefined {
  switch (std.std) {
    case "year": {
      if (value.length < 4 || !/^[0-9]{4}/.test(value)) return undefined;
      fields.year = Number(value.slice(0, 4));
      return value.slice(4);
    }
    case "zone": {
      if (value.startsWith("Z")) return value.slice(1);
      if (value.length < 6 || value[3] !== ":" || (value[0] !== "+" && value[0] !== "-")) return undefined;
      if (!twoDigits(value.slice(1, 3), true) || !twoDigits(value.slice(4, 6), true)) return undefined;
      return value.slice(6);
    }
    case "micro": {
      if (value.length < 7 || (value[0] !== "." && value[0] !== ",") || !/^[0-9]{6}/.test(value.slice(1))) return undefined;
      return value.slice(7);
    }
    default: {
      const read = twoDigits(value, std.std !== "hour");
      if (!read) return undefined;
      // Any two-digit day passes here; the month's length is checked once the whole value is read.
      const limit = { month: 13, day: 100, hour: 24, minute: 60, second: 60 }[std.std]!;
      if ((std.std === "month" && read.n === 0) || read.n >= limit) return { range: std.std };
      fields[std.std] = read.n;
      // A fraction after the seconds is accepted when the layout has none of its own.
      if (std.std === "second" && !layoutHasFraction) return read.rest.replace(/^[.,][0-9]+/, "");
      return read.rest;
    }
  }
}

/**
 * A timestamp already in the form its MarshalJSON writes (UTC; whole seconds, or six fraction digits for MicroTime):
 * what this server sets on every create (creationTimestamp, managedFields times) and most clients send back.
 */
const MARSHALLED: Record<typeof RFC3339 | typeof RFC3339_MICRO, RegExp> = {
  [RFC3339]: /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/,
  [RFC3339_MICRO]: /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{6}Z$/,
};

/** True for a value in its marshalled form that parses: checked by its parts' ranges alone, as the parser below would. */
function isMarshalled(layout: typeof RFC3339 | typeof RFC3339_MICRO, value: string): boolean {
  const m = MARSHALLED[layout].exec(value);
  if (!m) return false;
  const month = Number(m[2]);
  const day = Number(m[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(month, Number(m[1])) && Number(m[4]) < 24 &&
    Number(m[5]) < 60 && Number(m[6]) < 60;
}

/** The error Go's time.Parse(layout, value) gives, or undefined when the value parses. */
export function timeParseError(layout: typeof RFC3339 | typeof RFC3339_MICRO, value: string): string | undefined {
  if (isMarshalled(layout, value)) return undefined;
  const fields: Record<string, number> = {};
  let rest = value;
  const cannotParse = (elem: string, at: string) =>
    `parsing time ${quote(value)} as ${quote(layout)}: cannot parse ${quote(at)} as ${quote(elem)}`;
  for (const element of LAYOUTS[layout]) {
    if ("literal" in element) {
      if (!rest.startsWith(element.literal)) return cannotParse(element.literal, rest);
      rest = rest.slice(element.literal.length);
      continue;
    }
    const read = readStd(element, rest, fields, layout === RFC3339_MICRO);
    if (read === undefined) return cannotParse(element.text, rest);
    if (typeof read === "object") return `parsing time ${quote(value)}: ${read.range} out of range`;
    rest = read;
  }
  if (rest !== "") return `parsing time ${quote(value)}: extra text: ${quote(rest)}`;
  if (fields.day < 1 || fields.day > daysIn(fields.month, fields.year)) return `parsing time ${quote(value)}: day out of range`;
  return undefined;
}

/** The digits of a timestamp that timeParseError accepted: date, time, optional fraction, zone. */
const PARSED_TIME = /^(\d{4})-(\d{1,2})-(\d{1,2})T(\d{1,2}):(\d{1,2}):(\d{1,2})(?:[.,](\d+))?(Z|([+-])(\d{2}):(\d{2}))$/;

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/**
 * A valid timestamp as kube writes it back: metav1.Time's MarshalJSON is `t.UTC().Format(time.RFC3339)` (whole
 * seconds), MicroTime's `t.UTC().Format(RFC3339Micro)` (six digits); Go's Format truncates the fraction. A value
 * whose UTC year leaves 0..9999 (Go refuses to marshal it) is kept as sent.
 */
export function canonicalTime(layout: typeof RFC3339 | typeof RFC3339_MICRO, value: string): string {
  // timeParseError accepted it, ranges included: the marshalled shape alone says it is already canonical.
  if (MARSHALLED[layout].test(value)) return value;
  const m = PARSED_TIME.exec(value);
  if (!m) return value;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const offsetMinutes = m[8] === "Z" ? 0 : (m[9] === "-" ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  const utc = new Date(0);
  // setUTCFullYear, unlike Date.UTC, keeps years below 100 as they are.
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute - offsetMinutes, second, 0);
  const utcYear = utc.getUTCFullYear();
  if (utcYear < 0 || utcYear > 9999) return value;
  const date = `${pad(utcYear, 4)}-${pad(utc.getUTCMonth() + 1, 2)}-${pad(utc.getUTCDate(), 2)}`;
  const time = `${pad(utc.getUTCHours(), 2)}:${pad(utc.getUTCMinutes(), 2)}:${pad(utc.getUTCSeconds(), 2)}`;
  const fraction = layout === RFC3339_MICRO ? `.${(m[7] ?? "").slice(0, 6).padEnd(6, "0")}` : "";
  return `${date}T${time}${fraction}Z`;
}
