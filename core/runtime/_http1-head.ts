/**
 * Reads an HTTP/1.x request head as Go's net/http server does (readRequest, net/textproto's readMIMEHeader,
 * transfer.go's readTransfer), and the plain-text answers its conn.serve writes to a head it cannot read.
 */
import { VALID_HOST } from "./fetch-adapter.ts";
import { parsesAsRequestUri } from "./_request-target.ts";

/** What Go's conn.serve writes after the status of a request it cannot read. */
const ERROR_HEADERS = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n";

/** A head Go's server refuses; `answer` is the whole plain-text answer conn.serve writes before closing. */
export class UnreadableHead extends Error {
  constructor(readonly answer: string) {
    super(answer.slice(0, answer.indexOf("\r\n")));
  }
}

/** conn.serve's default case: "400 Bad Request", with the reason only for a badRequestError. */
function badRequest(reason?: string): UnreadableHead {
  const status = reason === undefined ? "400 Bad Request" : `400 Bad Request: ${reason}`;
  return new UnreadableHead(`HTTP/1.1 ${status}${ERROR_HEADERS}${status}`);
}

/** conn.serve's answer to a request it cannot read that names no reason: a malformed line, a head cut short by EOF. */
export const BAD_REQUEST = badRequest();

/** conn.serve's errTooLarge: a head past MaxHeaderBytes. */
export const HEAD_TOO_LARGE = new UnreadableHead(
  `HTTP/1.1 431 Request Header Fields Too Large${ERROR_HEADERS}431 Request Header Fields Too Large`,
);

/**
 * Header fields one head may hold. Go counts only bytes (MaxHeaderBytes), but the fetch Headers each request becomes
 * takes time growing with the square of its distinct names under Bun (~1 ms at 500, 16 ms at 2,000, seconds at tens
 * of thousands within MaxHeaderBytes): past this a head is answered as one too large, as node:http did before this
 * layer (it refused between 300 and 2,000 fields).
 */
export const MAX_HEADER_FIELDS = 500;

export interface Http1Head {
  method: string;
  /** The request-target as sent. */
  target: string;
  /** 0 or 1: 1.2 and later are read as 1.1. */
  versionMinor: number;
  /** Name, value, name, value... as sent (names' case kept), obs-folds joined with one space. */
  rawHeaders: string[];
  /** Lower-case names; repeated fields joined with ", " as the fetch Headers join them. */
  headers: Record<string, string>;
  /** Body bytes declared, or "chunked". */
  body: number | "chunked";
}

/** Go's isTokenTable (httpguts): the bytes of a method or a header name. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** httpguts.ValidHeaderFieldValue: no control bytes but horizontal tab. */
// deno-lint-ignore no-control-regex -- control bytes are what the check looks for
const BAD_VALUE_BYTE = /[\x00-\x08\x0a-\x1f\x7f]/;
/**
 * A byte no valid field value holds, outside the line ends: a head without one has no value to check byte by byte.
 * Every "\r" but those before a "\n" or at the head's end (its last line's) is one.
 */
// deno-lint-ignore no-control-regex -- control bytes are what the check looks for
const STRAY_CONTROL_BYTE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\r(?!\n|$)/;
const DECIMAL = /^[0-9]+$/;
const MAX_INT63 = (1n << 63n) - 1n;
/** isTokenTable as a table by character code (ASCII only; no byte past it is a token). */
const TOKEN_CHARACTER = new Uint8Array(128).map((_, code) => TOKEN.test(String.fromCharCode(code)) ? 1 : 0);

/**
 * The fields clients send most, in their usual spellings (Go's canonical form, and all lower case), by the names'
 * lengths: name as sent, then its lower-case key. A field found here takes both strings from this table: cutting the
 * name out of the head, lower-casing it and using the new string as a key of `headers` (or of a Map) cost ~100 ns a
 * field in a loop, most of the old parse's ~3 µs for a create's four fields (bench/profiles/create-path.md,
 * thirteenth session).
 */
const USUAL_FIELDS: string[][] = [];
for (
  const key of [
    "host",
    "accept",
    "accept-encoding",
    "authorization",
    "connection",
    "content-length",
    "content-type",
    "expect",
    "transfer-encoding",
    "user-agent",
    "kubectl-command",
    "kubectl-session",
    "x-remote-user",
    "x-remote-group",
    "impersonate-user",
    "impersonate-group",
    "audit-id",
    "x-request-id",
  ]
) {
  const canonical = key.replace(/(^|-)[a-z]/g, (start) => start.toUpperCase());
  (USUAL_FIELDS[key.length] ??= []).push(canonical, key, key, key);
}

/** Where in `spellings` (one length's pairs of USUAL_FIELDS) the name spelled as `text` from `start` is, or -1. */
function usualSpelling(spellings: string[], text: string, start: number): number {
  for (let pair = 0; pair < spellings.length; pair += 2) {
    const spelling = spellings[pair]!;
    let at = 0;
    while (at < spelling.length && spelling.charCodeAt(at) === text.charCodeAt(start + at)) at++;
    if (at === spelling.length) return pair;
  }
  return -1;
}

/** A header field's name: a token (httpguts.ValidHeaderFieldName). */
export function isFieldName(name: string): boolean {
  return TOKEN.test(name);
}

/** A header field's value: no control bytes but horizontal tab (httpguts.ValidHeaderFieldValue). */
export function isFieldValue(value: string): boolean {
  return !BAD_VALUE_BYTE.test(value);
}

/** textproto.TrimString: spaces and tabs only. */
function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isBlank(text.charCodeAt(start))) start++;
  while (end > start && isBlank(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9;
}

/**
 * Where each of the head's lines starts, and past the last the head's length plus one (as if a "\n" followed it):
 * line i runs to the "\n" at starts[i + 1] - 1. The lines are read in place in the head, not split into strings
 * first (splitting and trimming the lines was ~0.4 µs of the old parse).
 */
function lineStarts(head: string): number[] {
  const starts = [0];
  for (let at = head.indexOf("\n"); at >= 0; at = head.indexOf("\n", at + 1)) starts.push(at + 1);
  starts.push(head.length + 1);
  return starts;
}

/** Where line `i` ends, without its "\n" or "\r\n" (textproto reads lines ending in either). */
function lineEnd(head: string, starts: number[], i: number): number {
  const end = starts[i + 1]! - 1;
  return end > starts[i]! && head.charCodeAt(end - 1) === 13 ? end - 1 : end;
}

/**
 * Parses `head` (latin1 text, one character per byte, up to but not including the blank line that ends it).
 * Throws UnreadableHead with Go's answer for anything Go's server refuses before calling its handler.
 */
export function parseHead(head: string): Http1Head {
  const starts = lineStarts(head);
  const lines = starts.length - 1;
  // parseRequestLine: method, target and protocol are cut at the first two spaces. They are cut out of the head
  // itself, and a usual method or protocol is no new string: each string cut is a native allocation.
  const requestLineEnd = lineEnd(head, starts, 0);
  const firstSpace = head.indexOf(" ");
  const secondSpace = firstSpace < 0 ? -1 : head.indexOf(" ", firstSpace + 1);
  if (secondSpace < 0 || secondSpace >= requestLineEnd) throw badRequest();
  const method = usualMethod(head, firstSpace) ?? head.slice(0, firstSpace);
  const target = head.slice(firstSpace + 1, secondSpace);
  if (!TOKEN.test(method)) throw badRequest();
  const version = httpVersion(head, secondSpace + 1, requestLineEnd);
  if (!parsesAsRequestUri(method, target)) throw badRequest();
  // Go serves every HTTP/1.x (http1ServerSupportsRequest); 1.2 and later are read as 1.1.
  const versionMinor = version === "1.0" ? 0 : 1;

  const fields = new HeadFields(STRAY_CONTROL_BYTE.test(head));
  if (lines - 1 > MAX_HEADER_FIELDS) throw HEAD_TOO_LARGE;
  // readMIMEHeader: a first header line that starts with a space is malformed; later ones continue their field.
  if (lines > 1 && isFolded(head, starts[1]!)) throw badRequest();
  for (let i = 1; i < lines; i++) {
    if (i + 1 < lines && isFolded(head, starts[i + 1]!)) {
      // readContinuedLineSlice: the line trimmed, then " " and each continuation trimmed (joined once: a field folded
      // over hundreds of lines must not be copied once per line).
      const parts = [trimRight(head.slice(starts[i], lineEnd(head, starts, i)))];
      while (i + 1 < lines && isFolded(head, starts[i + 1]!)) {
        i++;
        parts.push(trimSpaces(head.slice(starts[i], lineEnd(head, starts, i))));
      }
      const line = parts.join(" ");
      fields.add(line, 0, line.length);
    } else fields.add(head, starts[i]!, lineEnd(head, starts, i));
  }
  const { rawHeaders, headers } = fields;
  // readRequest: only one Host, before the body's framing (readTransfer).
  if (fields.hosts > 1) throw badRequest("too many Host headers");
  const body = bodyOf(versionMinor, fields);
  // (*conn).readRequest, once readRequest read the head and its framing: another major version, then the Host checks.
  if (version[0] !== "1") throw VERSION_NOT_SUPPORTED;
  if (fields.hosts === 0 && versionMinor !== 0 && method !== "CONNECT") throw badRequest("missing required Host header");
  if (fields.hosts !== 0 && !VALID_HOST.test(headers.host!)) throw badRequest("malformed Host header");
  return { method, target, versionMinor, rawHeaders, headers, body };
}

/** The fields of one head as readMIMEHeader reads them, and the counts of those that frame the request. */
class HeadFields {
  readonly rawHeaders: string[] = [];
  readonly headers: Record<string, string> = {};
  hosts = 0;
  codings = 0;
  /** The first Content-Length value as sent (trimmed). */
  length: string | undefined = undefined;
  /** A later Content-Length differed from the first. */
  lengthsDiffer = false;
  /**
   * Whether values must be checked for control bytes: one test of the whole head instead of a loop over each value's
   * characters (a 900-byte bearer token took ~0.9 µs a head in a loop).
   */
  readonly #checksValues: boolean;

  constructor(checksValues: boolean) {
    this.#checksValues = checksValues;
  }

  /** The field on `text` from `start` to `end`: "name: value", the name a token, the value without control bytes. */
  add(text: string, start: number, end: number): void {
    let colon = start;
    while (colon < end && text.charCodeAt(colon) !== 58) {
      const code = text.charCodeAt(colon);
      if (code >= 128 || TOKEN_CHARACTER[code] === 0) throw badRequest();
      colon++;
    }
    if (colon === start || colon === end) throw badRequest();
    let from = colon + 1;
    let to = end;
    while (from < to && isBlank(text.charCodeAt(from))) from++;
    while (to > from && isBlank(text.charCodeAt(to - 1))) to--;
    const spellings = USUAL_FIELDS[colon - start];
    const usual = spellings === undefined ? -1 : usualSpelling(spellings, text, start);
    const name = usual < 0 ? text.slice(start, colon) : spellings![usual]!;
    const key = usual < 0 ? name.toLowerCase() : spellings![usual + 1]!;
    const value = text.slice(from, to);
    if (this.#checksValues && BAD_VALUE_BYTE.test(value)) throw badRequest();
    this.rawHeaders.push(name, value);
    const headers = this.headers;
    const earlier = headers[key];
    headers[key] = earlier === undefined ? value : `${earlier}, ${value}`;
    if (key === "host") this.hosts++;
    else if (key === "transfer-encoding") this.codings++;
    else if (key === "content-length") {
      if (this.length === undefined) this.length = value;
      else if (value !== this.length) this.lengthsDiffer = true;
    }
  }
}

/** Whether the line starting at `start` is an obs-fold (it starts with a space or a tab). */
function isFolded(head: string, start: number): boolean {
  return isBlank(head.charCodeAt(start));
}

function trimRight(text: string): string {
  let end = text.length;
  while (end > 0 && isBlank(text.charCodeAt(end - 1))) end--;
  return text.slice(0, end);
}

/** ParseHTTPVersion of the protocol from `start` to `end` in `head`: "HTTP/d.d", answered as "d.d"; anything else is refused. */
function httpVersion(head: string, start: number, end: number): string {
  // Nearly every request's, compared in place.
  if (end - start === HTTP11.length && head.startsWith(HTTP11, start)) return "1.1";
  const protocol = head.slice(start, end);
  if (!/^HTTP\/[0-9]\.[0-9]$/.test(protocol)) throw badRequest();
  return protocol.slice(5);
}

const HTTP11 = "HTTP/1.1";
/** The methods kube's clients send, by length. */
const USUAL_METHODS: string[][] = [];
for (const method of ["GET", "PUT", "POST", "HEAD", "PATCH", "DELETE", "OPTIONS"]) (USUAL_METHODS[method.length] ??= []).push(method);

/** The usual method `head` starts with, `length` characters long, or undefined. */
function usualMethod(head: string, length: number): string | undefined {
  for (const method of USUAL_METHODS[length] ?? []) if (head.startsWith(method)) return method;
  return undefined;
}

/** http1ServerSupportsRequest's refusal of a version other than HTTP/1.x. */
const VERSION_NOT_SUPPORTED_STATUS = "505 HTTP Version Not Supported: unsupported protocol version";
const VERSION_NOT_SUPPORTED = new UnreadableHead(`HTTP/1.1 ${VERSION_NOT_SUPPORTED_STATUS}${ERROR_HEADERS}${VERSION_NOT_SUPPORTED_STATUS}`);

/**
 * readTransfer for a request: on HTTP/1.1 one Transfer-Encoding, "chunked", wins over Content-Length (which is
 * dropped, as Go drops it); another coding is conn.serve's 501. HTTP/1.0 ignores Transfer-Encoding. Repeated
 * Content-Lengths must agree; one that is no decimal number is refused.
 */
function bodyOf(versionMinor: number, fields: HeadFields): number | "chunked" {
  const { rawHeaders, headers } = fields;
  if (fields.codings !== 0) {
    if (versionMinor === 0) {
      dropField(rawHeaders, headers, "transfer-encoding");
    } else {
      if (fields.codings !== 1 || headers["transfer-encoding"]!.toLowerCase() !== "chunked") {
        throw new UnreadableHead(`HTTP/1.1 501 Not Implemented${ERROR_HEADERS}Unsupported transfer encoding`);
      }
      dropField(rawHeaders, headers, "content-length");
      return "chunked";
    }
  }
  const declared = fields.length;
  if (declared === undefined) return 0;
  if (fields.lengthsDiffer) throw badRequest();
  // parseContentLength: strconv.ParseUint(cl, 10, 63). Past 2^53 the count is approximate; no body that long ends.
  if (!DECIMAL.test(declared) || (declared.length >= 19 && BigInt(declared) > MAX_INT63)) throw badRequest();
  headers["content-length"] = declared;
  return Number(declared);
}

function dropField(rawHeaders: string[], headers: Record<string, string>, key: string): void {
  delete headers[key];
  for (let i = rawHeaders.length - 2; i >= 0; i -= 2) if (rawHeaders[i]!.toLowerCase() === key) rawHeaders.splice(i, 2);
}

/**
 * Where the head in `bytes` ends: `head` its length without the line end before the blank line, `next` the index
 * past that blank line; undefined while it has not all come. Lines end in "\r\n" or "\n" (textproto). `from` is
 * where to look from (what was searched before, less three bytes).
 */
export function headEnd(bytes: Uint8Array, from = 0): { head: number; next: number } | undefined {
  for (let at = bytes.indexOf(10, from); at >= 0; at = bytes.indexOf(10, at + 1)) {
    if (bytes[at + 1] === 10) return { head: at, next: at + 2 };
    if (bytes[at + 1] === 13 && bytes[at + 2] === 10) return { head: at, next: at + 3 };
  }
  return undefined;
}
