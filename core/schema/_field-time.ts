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
    { std: "year", text: "2006" }, { literal: "-" }, { std: "month", text: "01" }, { literal: "-" }, { std: "day", text: "02" },
    { literal: "T" }, { std: "hour", text: "15" }, { literal: ":" }, { std: "minute", text: "04" }, { literal: ":" },
    { std: "second", text: "05" }, ...(micro ? [{ std: "micro", text: ".000000" } as const] : []), { std: "zone", text: "Z07:00" },
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

const daysIn = (month: number, year: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

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

/** The error Go's time.Parse(layout, value) gives, or undefined when the value parses. */
export function timeParseError(layout: typeof RFC3339 | typeof RFC3339_MICRO, value: string): string | undefined {
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
