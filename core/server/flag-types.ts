/**
 * Value types of command-line flags, named and printed as spf13/pflag does so `--help` reads like
 * kube-apiserver's, and Go's duration syntax (`90s`, `5m`, `1h30m`).
 */
import { parseGoDuration } from "../api/go-duration.ts";
import { parseGoBool } from "../api/query-params.ts";

export interface FlagType<T> {
  /** Shown after the flag name in --help ("int", "string", "duration"); empty for booleans. */
  name: string;
  parse(text: string): T;
  format(value: T): string;
  /** Whether a bare `--flag` means true (booleans only). */
  isBoolean?: true;
  /** Whether repeating the flag adds to its value instead of replacing it (pflag's slices). */
  isList?: true;
}

export const intFlag: FlagType<number> = {
  name: "int",
  parse(text) {
    if (!/^[+-]?\d+$/.test(text.trim())) throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`);
    return Number.parseInt(text, 10);
  },
  format: String,
};

export const float32Flag: FlagType<number> = {
  name: "float32",
  parse(text) {
    const value = Number(text.trim());
    if (text.trim() === "" || Number.isNaN(value)) throw new Error(`strconv.ParseFloat: parsing ${JSON.stringify(text)}: invalid syntax`);
    return value;
  },
  format: String,
};

export const stringFlag: FlagType<string> = { name: "string", parse: (text) => text, format: (value) => value };

export const boolFlag: FlagType<boolean> = {
  name: "",
  isBoolean: true,
  parse(text) {
    const value = parseGoBool(text);
    if (value === undefined) throw new Error(`strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`);
    return value;
  },
  format: String,
};

/** pflag's stringSlice: comma-separated, and repeating the flag adds more. */
export const stringListFlag: FlagType<string[]> = {
  name: "strings",
  isList: true,
  parse: (text) => text.split(",").map((item) => item.trim()).filter((item) => item !== ""),
  format: (value) => `[${value.join(",")}]`,
};

/** cliflag.ConfigurationMap (`mapStringString`): `key=value` items, a bare key meaning ""; repeating the flag adds more. */
export const mapStringStringFlag: FlagType<Record<string, string>> = {
  name: "mapStringString",
  isList: true,
  parse(text) {
    const map: Record<string, string> = {};
    for (const item of text.split(",")) {
      if (item.length === 0) continue;
      const at = item.indexOf("=");
      if (at < 0) map[item.trim()] = "";
      else map[item.slice(0, at).trim()] = item.slice(at + 1).trim();
    }
    return map;
  },
  format: (map) => Object.entries(map).map(([key, value]) => `${key}=${value}`).join(","),
};

/** Durations are held in milliseconds. */
export const durationFlag: FlagType<number> = { name: "duration", parse: parseGoDuration, format: formatGoDuration };

/** klog's verbosity Level: a non-negative int32. */
export const levelFlag: FlagType<number> = {
  name: "Level",
  parse(text) {
    const value = intFlag.parse(text);
    if (value < 0 || value > 2 ** 31 - 1) throw new Error(`strconv.ParseUint: parsing ${JSON.stringify(text)}: value out of range`);
    return value;
  },
  format: String,
};

export function enumFlag<T extends string>(values: readonly T[]): FlagType<T> {
  return {
    name: "string",
    parse(text) {
      const match = values.find((value) => value === text.toUpperCase());
      if (match === undefined) throw new Error(`must be one of ${values.join(", ")}`);
      return match;
    },
    format: (value) => value,
  };
}

export { parseGoDuration };

/** Formats milliseconds like Go's Duration.String(): 5m0s, 1h30m0s, 1.5s, 250ms. */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return "0s";
  const sign = ms < 0 ? "-" : "";
  const abs = Math.abs(ms);
  if (abs < 1000) return `${sign}${trimNumber(abs)}ms`;
  const hours = Math.floor(abs / 3_600_000);
  const minutes = Math.floor((abs % 3_600_000) / 60_000);
  const seconds = (abs % 60_000) / 1000;
  const head = hours > 0 ? `${hours}h${minutes}m` : minutes > 0 ? `${minutes}m` : "";
  return `${sign}${head}${trimNumber(seconds)}s`;
}

function trimNumber(value: number): string {
  return String(Number(value.toFixed(9)));
}
