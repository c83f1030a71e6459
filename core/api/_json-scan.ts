/**
 * JSON helpers for the slow paths of body decoding: a reader that fails with the messages of Go's
 * encoding/json scanner ("invalid character 'x' looking for beginning of value"), including its nesting limit
 * (scanner.pushParseState: "invalid character '[' exceeded max depth" past 10000 levels), and linear scans of
 * valid JSON text that count members and find duplicate object keys by field path (`spec.containers[0].name`,
 * as kube's strict decoder names them).
 */
import { goQuoteByte } from "./go-text.ts";
import { takeTurn } from "./turns.ts";
import { setMember } from "./json-member.ts";

export class JSONSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JSONSyntaxError";
  }
}

const END = "unexpected end of JSON input";
/** encoding/json's maxNestingDepth, which sigs.k8s.io/json keeps. */
export const MAX_NESTING_DEPTH = 10000;
const isSpace = (ch: string | undefined) => ch === " " || ch === "\t" || ch === "\n" || ch === "\r";
const isDigit = (ch: string | undefined) => ch !== undefined && ch >= "0" && ch <= "9";
/** A run of string characters that need no attention (no quote, backslash or control character). */
// deno-lint-ignore no-control-regex -- JSON strings may not hold control characters; the run stops at them
const PLAIN_RUN = /[^"\\\u0000-\u001f]*/y;
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** sigs.k8s.io/json's saveStrictError keeps at most this many distinct strict errors. */
export const MAX_STRICT_ERRORS = 100;

/** An object or array whose members are still being read; `key` is the object member being read. */
interface OpenContainer {
  object?: Record<string, unknown>;
  array?: unknown[];
  key?: string;
}

class Reader {
  #text: string;
  #pos = 0;

  constructor(text: string) {
    this.#text = text;
  }

  #fail(context: string): never {
    const ch = this.#text[this.#pos];
    throw new JSONSyntaxError(ch === undefined ? END : `invalid character ${goQuoteByte(ch)} ${context}`);
  }

  #skipSpace(): string | undefined {
    while (isSpace(this.#text[this.#pos])) this.#pos++;
    return this.#text[this.#pos];
  }

  /**
   * The whole text as one value. Iterative, with the open objects and arrays on an explicit stack, so nesting
   * up to the limit costs no call stack (V8 and JSC allow far fewer nested calls than 10000 levels need).
   */
  document(): unknown {
    const open: OpenContainer[] = [];
    for (;;) {
      const ch = this.#skipSpace();
      let value: unknown;
      if (ch === "{" || ch === "[") {
        if (open.length >= MAX_NESTING_DEPTH) this.#fail("exceeded max depth");
        this.#pos++;
        const container: OpenContainer = ch === "{" ? { object: {}, key: "" } : { array: [] };
        if (this.#skipSpace() !== (ch === "{" ? "}" : "]")) {
          if (container.object) container.key = this.#key();
          open.push(container);
          continue;
        }
        this.#pos++;
        value = container.object ?? container.array;
      } else {
        value = this.#scalar(ch);
      }
      // A value is complete: it goes into its container, which may complete in turn.
      for (;;) {
        const top = open[open.length - 1];
        if (top === undefined) {
          if (this.#skipSpace() !== undefined) this.#fail("after top-level value");
          return value;
        }
        if (top.array) top.array.push(value);
        else setMember(top.object!, top.key!, value);
        const next = this.#skipSpace();
        if (next === ",") {
          this.#pos++;
          if (top.object) top.key = this.#key();
          break;
        }
        if (next !== (top.array ? "]" : "}")) this.#fail(top.array ? "after array element" : "after object key:value pair");
        this.#pos++;
        open.pop();
        value = top.object ?? top.array;
      }
    }
  }

  /** An object key and its colon. */
  #key(): string {
    if (this.#skipSpace() !== '"') this.#fail("looking for beginning of object key string");
    const key = this.#string();
    if (this.#skipSpace() !== ":") this.#fail("after object key");
    this.#pos++;
    return key;
  }

  #scalar(ch: string | undefined): unknown {
    if (ch === '"') return this.#string();
    if (ch === "-" || isDigit(ch)) return this.#number();
    if (ch === "t") return this.#literal("true", true);
    if (ch === "f") return this.#literal("false", false);
    if (ch === "n") return this.#literal("null", null);
    return this.#fail("looking for beginning of value");
  }

  #string(): string {
    let out = "";
    let chunkStart = ++this.#pos;
    for (;;) {
      PLAIN_RUN.lastIndex = this.#pos;
      PLAIN_RUN.test(this.#text);
      this.#pos = PLAIN_RUN.lastIndex;
      const ch = this.#text[this.#pos];
      if (ch === undefined) throw new JSONSyntaxError(END);
      if (ch === '"') {
        out += this.#text.slice(chunkStart, this.#pos++);
        return out;
      }
      if (ch < " ") this.#fail("in string literal");
      out += this.#text.slice(chunkStart, this.#pos++);
      out += this.#escape();
      chunkStart = this.#pos;
    }
  }

  #escape(): string {
    const ch = this.#text[this.#pos];
    if (ch === "u") {
      this.#pos++;
      for (let i = 0; i < 4; i++) {
        if (!/[0-9a-fA-F]/.test(this.#text[this.#pos + i] ?? "")) {
          this.#pos += i;
          this.#fail("in \\u hexadecimal character escape");
        }
      }
      this.#pos += 4;
      return String.fromCharCode(parseInt(this.#text.slice(this.#pos - 4, this.#pos), 16));
    }
    if (ch === undefined || ESCAPES[ch] === undefined) this.#fail("in string escape code");
    this.#pos++;
    return ESCAPES[ch];
  }

  #digits(context: string): void {
    if (!isDigit(this.#text[this.#pos])) this.#fail(context);
    while (isDigit(this.#text[this.#pos])) this.#pos++;
  }

  /** A number; an integer beyond 2^53 as a BigInt, so it stays exact as Go's int64 does. */
  #number(): number | bigint {
    const start = this.#pos;
    if (this.#text[this.#pos] === "-") this.#pos++;
    if (this.#text[this.#pos] === "0") this.#pos++;
    else this.#digits("in numeric literal");
    const integerEnd = this.#pos;
    if (this.#text[this.#pos] === ".") {
      this.#pos++;
      this.#digits("after decimal point in numeric literal");
    }
    if (this.#text[this.#pos] === "e" || this.#text[this.#pos] === "E") {
      this.#pos++;
      if (this.#text[this.#pos] === "+" || this.#text[this.#pos] === "-") this.#pos++;
      this.#digits("in exponent of numeric literal");
    }
    const value = Number(this.#text.slice(start, this.#pos));
    if (integerEnd !== this.#pos || Number.isSafeInteger(value)) return value;
    return BigInt(this.#text.slice(start, this.#pos));
  }

  #literal<T>(word: string, value: T): T {
    for (let i = 1; i < word.length; i++) {
      this.#pos++;
      if (this.#text[this.#pos] !== word[i]) this.#fail(`in literal ${word} (expecting '${word[i]}')`);
    }
    this.#pos++;
    return value;
  }
}

/** Parses JSON text; throws JSONSyntaxError with Go's wording. Duplicate keys keep the last value. */
export function readJSON(text: string): { value: unknown } {
  return { value: new Reader(text).document() };
}

/**
 * Characters a scan reads per event-loop turn (api/turns.ts): a body of megabytes is scanned in pieces of a
 * millisecond or so, with health checks and other requests served between them.
 */
const SCANNED_PER_TURN = 256 * 1024;

/** Waits for the scan's next turn; answers where the turn after it starts. */
async function nextTurnAt(at: number): Promise<number> {
  await takeTurn();
  return at + SCANNED_PER_TURN;
}

/** The index of the quote closing the string of valid JSON text that opens at `open`. */
function closingQuote(text: string, open: number): number {
  let quote = text.indexOf('"', open + 1);
  for (;;) {
    if (quote < 0) return text.length;
    // A quote after an odd number of backslashes is escaped.
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
}

/** Where a scan of valid JSON is: inside an object (with the keys seen so far) or an array (at an index). */
interface Frame {
  keys?: Set<string>;
  /** Keys of this object already reported, so a key repeated many times costs one path. */
  reported?: Set<string>;
  key: string;
  index: number;
  expectingKey: boolean;
}

function pathOf(frames: Frame[]): string {
  let path = "";
  for (const frame of frames) path += frame.keys ? (path === "" ? frame.key : `.${frame.key}`) : `[${frame.index}]`;
  return path;
}

/**
 * Paths of the keys written more than once in valid JSON text, in document order, each once and at most
 * MAX_STRICT_ERRORS of them, as kube's strict decoder collects them. One linear pass; no values are built.
 */
export async function findDuplicateFields(text: string): Promise<string[]> {
  const duplicates = new Set<string>();
  const frames: Frame[] = [];
  for (let i = 0, pause = SCANNED_PER_TURN; i < text.length; i++) {
    if (i >= pause) pause = await nextTurnAt(i);
    const code = text.charCodeAt(i);
    const top = frames[frames.length - 1];
    if (code === 0x22) {
      const start = i;
      i = closingQuote(text, i);
      if (!top?.keys || !top.expectingKey) continue;
      const raw = text.slice(start + 1, i);
      const key = raw.includes("\\") ? (JSON.parse(text.slice(start, i + 1)) as string) : raw;
      top.expectingKey = false;
      top.key = key;
      if (!top.keys.has(key)) top.keys.add(key);
      else if (duplicates.size < MAX_STRICT_ERRORS && !top.reported?.has(key)) {
        (top.reported ??= new Set()).add(key);
        duplicates.add(pathOf(frames));
      }
    } else if (code === 0x7b) frames.push({ keys: new Set(), key: "", index: 0, expectingKey: true });
    else if (code === 0x5b) frames.push({ key: "", index: 0, expectingKey: false });
    else if (code === 0x7d || code === 0x5d) frames.pop();
    else if (code === 0x2c && top) {
      if (top.keys) top.expectingKey = true;
      else top.index++;
    }
  }
  return [...duplicates];
}

/**
 * One linear pass over valid JSON text: its object members (every ':' outside a string follows a key) and
 * its deepest nesting of objects and arrays.
 */
export async function scanWritten(text: string): Promise<{ members: number; depth: number }> {
  const scan: WrittenScan = { members: 0, depth: 0, deepest: 0 };
  let at = scanWrittenPiece(text, 0, scan);
  while (at < text.length) {
    await takeTurn();
    at = scanWrittenPiece(text, at, scan);
  }
  return { members: scan.members, depth: scan.deepest };
}

interface WrittenScan {
  members: number;
  depth: number;
  deepest: number;
}

/**
 * One turn's piece of scanWritten, from `from`; answers where the next piece starts. A plain loop of its own: the
 * scan of an ordinary body is this one call, compiled as a loop rather than as an async function's.
 */
function scanWrittenPiece(text: string, from: number, scan: WrittenScan): number {
  const end = Math.min(text.length, from + SCANNED_PER_TURN);
  let i = from;
  for (; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) i = closingQuote(text, i);
    else if (code === 0x3a) scan.members++;
    else if (code === 0x7b || code === 0x5b) scan.deepest = Math.max(scan.deepest, ++scan.depth);
    else if (code === 0x7d || code === 0x5d) scan.depth--;
  }
  return i;
}

/** Object members present in a parsed value; fewer than written means some key was repeated. */
export function countParsedMembers(value: unknown): number {
  if (Array.isArray(value)) {
    let count = 0;
    for (const item of value) if (typeof item === "object" && item !== null) count += countParsedMembers(item);
    return count;
  }
  if (typeof value !== "object" || value === null) return 0;
  let count = 0;
  for (const key in value) {
    count++;
    const child = (value as Record<string, unknown>)[key];
    if (typeof child === "object" && child !== null) count += countParsedMembers(child);
  }
  return count;
}
