/**
 * Cuts a request body out of a connection's bytes: a declared length, or HTTP/1.1 chunks read as Go's chunkedReader
 * (net/http/internal/chunked.go) reads them: a size line of hex digits (extensions after ";" ignored, at most 4096
 * bytes), the chunk's bytes and exactly "\r\n"; after the last chunk, trailer lines, ignored, up to a blank line.
 */
import type { Buffer } from "node:buffer";

/** A chunked body that breaks Go's chunkedReader's syntax; the body errors and the connection ends. */
export class MalformedChunk extends Error {}

/** chunkedReader's maxLineLength. */
const MAX_LINE_BYTES = 4096;
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
        if (this.#line.length > MAX_LINE_BYTES) throw new MalformedChunk("header line too long");
        if (newline < 0) return bytes.length;
        at = newline + 1;
        const line = this.#line;
        this.#line = "";
        if (this.#state === "size") this.#sizeLine(line);
        else if (line === "" || line === "\r") this.#state = "done";
      }
    }
    return at;
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
