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
const DECIMAL = /^[0-9]+$/;
const MAX_INT63 = (1n << 63n) - 1n;

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
  while (start < end && (text.charCodeAt(start) === 32 || text.charCodeAt(start) === 9)) start++;
  while (end > start && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) end--;
  return text.slice(start, end);
}

/** The head's lines, each without its "\n" or "\r\n" (textproto reads lines ending in either). */
function linesOf(head: string): string[] {
  const lines = head.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.charCodeAt(line.length - 1) === 13) lines[i] = line.slice(0, -1);
  }
  return lines;
}

/**
 * Parses `head` (latin1 text, one character per byte, up to but not including the blank line that ends it).
 * Throws UnreadableHead with Go's answer for anything Go's server refuses before calling its handler.
 */
export function parseHead(head: string): Http1Head {
  const lines = linesOf(head);
  const requestLine = lines[0]!;
  // parseRequestLine: method, target and protocol are cut at the first two spaces.
  const firstSpace = requestLine.indexOf(" ");
  const secondSpace = firstSpace < 0 ? -1 : requestLine.indexOf(" ", firstSpace + 1);
  if (secondSpace < 0) throw badRequest();
  const method = requestLine.slice(0, firstSpace);
  const target = requestLine.slice(firstSpace + 1, secondSpace);
  if (!TOKEN.test(method)) throw badRequest();
  const version = httpVersion(requestLine.slice(secondSpace + 1));
  if (!parsesAsRequestUri(method, target)) throw badRequest();
  // Go serves every HTTP/1.x (http1ServerSupportsRequest); 1.2 and later are read as 1.1.
  const versionMinor = version === "1.0" ? 0 : 1;

  const rawHeaders: string[] = [];
  const headers: Record<string, string> = {};
  const counts: Record<string, number> = {};
  if (lines.length - 1 > MAX_HEADER_FIELDS) throw HEAD_TOO_LARGE;
  // readMIMEHeader: a first header line that starts with a space is malformed; later ones continue their field.
  if (lines.length > 1 && isFolded(lines[1]!)) throw badRequest();
  for (let i = 1; i < lines.length; i++) {
    let line = lines[i]!;
    while (i + 1 < lines.length && isFolded(lines[i + 1]!)) line = `${trimRight(line)} ${trimSpaces(lines[++i]!)}`;
    const colon = line.indexOf(":");
    if (colon <= 0) throw badRequest();
    const name = line.slice(0, colon);
    const value = trimSpaces(line.slice(colon + 1));
    if (!isFieldName(name) || !isFieldValue(value)) throw badRequest();
    const key = name.toLowerCase();
    rawHeaders.push(name, value);
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  // readRequest: only one Host, before the body's framing (readTransfer).
  if (counts.host !== undefined && counts.host > 1) throw badRequest("too many Host headers");
  const body = bodyOf(versionMinor, rawHeaders, headers, counts);
  // (*conn).readRequest, once readRequest read the head and its framing: another major version, then the Host checks.
  if (version[0] !== "1") throw VERSION_NOT_SUPPORTED;
  if (counts.host === undefined && versionMinor !== 0 && method !== "CONNECT") throw badRequest("missing required Host header");
  if (counts.host !== undefined && !VALID_HOST.test(headers.host!)) throw badRequest("malformed Host header");
  return { method, target, versionMinor, rawHeaders, headers, body };
}

function isFolded(line: string): boolean {
  const first = line.charCodeAt(0);
  return first === 32 || first === 9;
}

function trimRight(text: string): string {
  let end = text.length;
  while (end > 0 && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) end--;
  return text.slice(0, end);
}

/** ParseHTTPVersion: "HTTP/d.d", answered as "d.d"; anything else is refused. */
function httpVersion(protocol: string): string {
  if (!/^HTTP\/[0-9]\.[0-9]$/.test(protocol)) throw badRequest();
  return protocol.slice(5);
}

/** http1ServerSupportsRequest's refusal of a version other than HTTP/1.x. */
const VERSION_NOT_SUPPORTED_STATUS = "505 HTTP Version Not Supported: unsupported protocol version";
const VERSION_NOT_SUPPORTED = new UnreadableHead(`HTTP/1.1 ${VERSION_NOT_SUPPORTED_STATUS}${ERROR_HEADERS}${VERSION_NOT_SUPPORTED_STATUS}`);

/**
 * readTransfer for a request: on HTTP/1.1 one Transfer-Encoding, "chunked", wins over Content-Length (which is
 * dropped, as Go drops it); another coding is conn.serve's 501. HTTP/1.0 ignores Transfer-Encoding. Repeated
 * Content-Lengths must agree; one that is no decimal number is refused.
 */
function bodyOf(
  versionMinor: number,
  rawHeaders: string[],
  headers: Record<string, string>,
  counts: Record<string, number>,
): number | "chunked" {
  const codings = counts["transfer-encoding"];
  if (codings !== undefined) {
    if (versionMinor === 0) {
      dropField(rawHeaders, headers, "transfer-encoding");
    } else {
      if (codings !== 1 || trimSpaces(headers["transfer-encoding"]!).toLowerCase() !== "chunked") {
        throw new UnreadableHead(`HTTP/1.1 501 Not Implemented${ERROR_HEADERS}Unsupported transfer encoding`);
      }
      dropField(rawHeaders, headers, "content-length");
      return "chunked";
    }
  }
  if (counts["content-length"] === undefined) return 0;
  let declared: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() !== "content-length") continue;
    const value = trimSpaces(rawHeaders[i + 1]!);
    if (declared !== undefined && value !== declared) throw badRequest();
    declared = value;
  }
  // parseContentLength: strconv.ParseUint(cl, 10, 63). Past 2^53 the count is approximate; no body that long ends.
  if (!DECIMAL.test(declared!) || (declared!.length >= 19 && BigInt(declared!) > MAX_INT63)) throw badRequest();
  headers["content-length"] = declared!;
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
