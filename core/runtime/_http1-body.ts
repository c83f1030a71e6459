/**
 * Cuts a request body out of a connection's bytes: a declared length, or HTTP/1.1 chunks read as Go's chunkedReader
 * (net/http/internal/chunked.go) reads them: a size line of hex digits (extensions after ";" ignored, at most 4096
 * bytes), the chunk's bytes and exactly "\r\n"; after the last chunk, trailer lines up to a blank line, checked as
 * body.readTrailer checks them (textproto's ReadMIMEHeader, within the connection's 4096-byte read buffer) and dropped.
 */
import type { Buffer } from "node:buffer";
import { isFieldName, isFieldValue } from "./_http1-head.ts";

/** A chunked body that breaks Go's chunkedReader's syntax; the body errors and the connection ends. */
export class MalformedChunk extends Error {}

/** chunkedReader's maxLineLength. */
const MAX_LINE_BYTES = 4096;
/** readTrailer finds the trailer's end by peeking into the connection's read buffer, which holds 4096 bytes. */
const MAX_TRAILER_BYTES = 4096;
const LONG_TRAILER = "http: suspiciously long trailer after chunked body";
const HEX = /^[0-9a-fA-F]{1,16}$/;
const CR = 13;
const LF = 10;

type State = "size" | "data" | "data-end" | "trailer" | "done";

export class BodyDecoder {
  #state: State;
  /** Bytes left in the body (a declared length) or in the current chunk. */
  #remaining: number;
  readonly #chunked: boolean;
  /** A size or trailer line begun in an earlier read. */
  #line = "";
  /** How much of a chunk's closing "\r\n" came. */
  #closing = 0;
  /** The trailer's lines so far, checked when the blank line ends them, and their bytes. */
  #trailer: string[] = [];
  #trailerBytes = 0;

  constructor(body: number | "chunked") {
    this.#chunked = body === "chunked";
    this.#remaining = this.#chunked ? 0 : body as number;
    this.#state = this.#chunked ? "size" : body === 0 ? "done" : "data";
  }

  get done(): boolean {
    return this.#state === "done";
  }

  /** Takes body bytes from `bytes` at `at` on, handing each piece to `data`; answers where the body's bytes end. */
  take(bytes: Buffer, at: number, data: (part: Buffer) => void): number {
    while (at < bytes.length && this.#state !== "done") {
      if (this.#state === "data") {
        const end = Math.min(bytes.length, at + this.#remaining);
        this.#remaining -= end - at;
        const part = bytes.subarray(at, end);
        at = end;
        if (this.#remaining === 0) this.#state = this.#chunked ? "data-end" : "done";
        data(part);
      } else if (this.#state === "data-end") {
        if (bytes[at] !== (this.#closing === 0 ? CR : LF)) throw new MalformedChunk("malformed chunked encoding");
        at++;
        if (++this.#closing === 2) {
          this.#closing = 0;
          this.#state = "size";
        }
      } else {
        const newline = bytes.indexOf(LF, at);
        const end = newline < 0 ? bytes.length : newline;
        this.#line += bytes.toString("latin1", at, end);
        if (this.#state === "size" && this.#line.length > MAX_LINE_BYTES) throw new MalformedChunk("header line too long");
        if (this.#state === "trailer" && this.#trailerBytes + this.#line.length >= MAX_TRAILER_BYTES) {
          throw new MalformedChunk(LONG_TRAILER);
        }
        if (newline < 0) return bytes.length;
        at = newline + 1;
        const line = this.#line;
        this.#line = "";
        if (this.#state === "size") this.#sizeLine(line);
        else this.#trailerLine(line);
      }
    }
    return at;
  }

  #trailerLine(line: string): void {
    if (line !== "" && line !== "\r") {
      this.#trailer.push(line.charCodeAt(line.length - 1) === CR ? line.slice(0, -1) : line);
      this.#trailerBytes += line.length + 1;
      return;
    }
    const malformed = trailerError(this.#trailer);
    if (malformed !== undefined) throw new MalformedChunk(malformed);
    this.#state = "done";
  }

  /** A chunk's size line: trailing whitespace trimmed (trimTrailingWhitespace), then extensions cut (removeChunkExtension), then parseHexUint. */
  #sizeLine(line: string): void {
    const trimmed = line.replace(/[ \t\r]+$/, "");
    const semicolon = trimmed.indexOf(";");
    const size = semicolon < 0 ? trimmed : trimmed.slice(0, semicolon);
    if (!HEX.test(size)) throw new MalformedChunk(size === "" ? "empty hex number for chunk length" : "invalid byte in chunk length");
    this.#remaining = Number.parseInt(size, 16);
    this.#state = this.#remaining === 0 ? "trailer" : "data";
  }
}

/**
 * What textproto's ReadMIMEHeader says of the trailer's `lines` (line ends cut), undefined when it reads them: the
 * first may not continue a field, each field's first line needs a colon (mustHaveFieldNameColon), and the field,
 * its continuations joined, needs a token name and a value of valid bytes.
 */
function trailerError(lines: string[]): string | undefined {
  if (lines.length > 0 && continues(lines[0]!)) return `malformed MIME header initial line: ${lines[0]}`;
  for (let i = 0; i < lines.length; i++) {
    let field = lines[i]!;
    const colon = field.indexOf(":");
    if (colon < 0) return `malformed MIME header: missing colon: ${goQuoted(field)}`;
    while (i + 1 < lines.length && continues(lines[i + 1]!)) {
      field = `${field.replace(/[ \t]+$/, "")} ${lines[++i]!.replace(/^[ \t]+/, "")}`;
    }
    if (!isFieldName(field.slice(0, colon)) || !isFieldValue(field.slice(colon + 1))) return `malformed MIME header line: ${field}`;
  }
  return undefined;
}

function continues(line: string): boolean {
  return line.startsWith(" ") || line.startsWith("\t");
}

/** Go's %q of a line's bytes (strconv.Quote), bytes past ASCII as \x escapes. */
function goQuoted(text: string): string {
  const escapes: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\t": "\\t", "\r": "\\r", "\n": "\\n" };
  // deno-lint-ignore no-control-regex -- control bytes are what Go escapes
  return `"${text.replace(/["\\\x00-\x1f\x7f-\xff]/g, (c) => escapes[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`)}"`;
}
