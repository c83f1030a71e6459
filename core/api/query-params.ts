/**
 * Scalar query parameters decoded as kube's parameter codec converts url.Values into option structs
 * (k8s.io/apimachinery/pkg/runtime/conversion.go): the first value counts; conversion failures are 400s
 * carrying Go's strconv message.
 */
import { newBadRequest } from "./errors.ts";
import { goQuote } from "./go-text.ts";

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/**
 * Convert_Slice_string_To_bool: absent, "0" and "false" in any case are false; every other value,
 * "True", "yes", an empty value and a bare `?name` included, is true.
 */
export function queryBool(query: URLSearchParams, name: string): boolean {
  return queryOptionalBool(query, name) ?? false;
}

/** Convert_Slice_string_To_Pointer_bool: as queryBool, but absent stays undefined (e.g. DeleteOptions.orphanDependents). */
export function queryOptionalBool(query: URLSearchParams, name: string): boolean | undefined {
  const text = query.get(name);
  if (text === null) return undefined;
  return text !== "0" && text.toLowerCase() !== "false";
}

/** strconv.ParseInt(text, 10, 64) as a number, failing with Go's message (what Convert_Slice_string_To_int64 returns). */
export function parseInt64(text: string): number {
  if (!/^[+-]?\d+$/.test(text)) throw newBadRequest(`strconv.ParseInt: parsing ${goQuote(text)}: invalid syntax`);
  const value = BigInt(text);
  if (value > INT64_MAX || value < INT64_MIN) throw newBadRequest(`strconv.ParseInt: parsing ${goQuote(text)}: value out of range`);
  return Number(value);
}

/** Convert_Slice_string_To_int64 for an optional parameter: undefined when absent, 400 when not an int64. */
export function queryInt64(query: URLSearchParams, name: string): number | undefined {
  const text = query.get(name);
  return text === null ? undefined : parseInt64(text);
}

/** The spellings Go's strconv.ParseBool accepts. */
const PARSE_BOOL_WORDS: Record<string, boolean> = {
  "1": true,
  t: true,
  T: true,
  true: true,
  TRUE: true,
  True: true,
  "0": false,
  f: false,
  F: false,
  false: false,
  FALSE: false,
  False: false,
};

/** strconv.ParseBool; undefined for the spellings it rejects with a syntax error. */
export function parseGoBool(text: string): boolean | undefined {
  return Object.hasOwn(PARSE_BOOL_WORDS, text) ? PARSE_BOOL_WORDS[text] : undefined;
}

/** Stands for the query of a URL without one, read and never changed. */
const NO_QUERY = new URLSearchParams();

/**
 * A URL's query parameters: a URL's searchParams is an object made at its first read, which most requests, having
 * no query, need not pay for.
 */
export function queryOf(url: URL): URLSearchParams {
  return url.search === "" ? NO_QUERY : url.searchParams;
}

/** User agents kube pretty-prints for when `pretty` is not given: command-line HTTP tools and browsers. */
const HUMAN_USER_AGENT_PREFIXES = ["curl", "Wget", "Mozilla/5.0"];

/**
 * isPrettyPrint (k8s.io/apiserver/pkg/endpoints/handlers/negotiation): a non-empty `pretty` decides through
 * strconv.ParseBool (a value it rejects means not pretty); otherwise curl, Wget and browsers get indented JSON.
 */
export function isPrettyPrint(query: URLSearchParams, userAgent: string | null): boolean {
  const pretty = query.get("pretty") ?? "";
  if (pretty !== "") return parseGoBool(pretty) ?? false;
  const agent = userAgent ?? "";
  return HUMAN_USER_AGENT_PREFIXES.some((prefix) => agent.startsWith(prefix));
}
