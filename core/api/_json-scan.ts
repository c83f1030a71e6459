/**
 * A JSON reader for the slow paths of body decoding: it reports duplicate object keys with their
 * field paths (`spec.containers[0].name`, as kube's strict decoder names them) and fails with the
 * messages of Go's encoding/json scanner ("invalid character 'x' looking for beginning of value").
 */
import { goQuoteByte } from "./_go-text.ts";

export class JSONSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JSONSyntaxError";
  }
}

const END = "unexpected end of JSON input";
const isSpace = (ch: string | undefined) => ch === " " || ch === "\t" || ch === "\n" || ch === "\r";
const isDigit = (ch: string | undefined) => ch !== undefined && ch >= "0" && ch <= "9";
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

class Reader {
  readonly duplicates: string[] = [];
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

  document(): unknown {
    const value = this.#value("");
    if (this.#skipSpace() !== undefined) this.#fail("after top-level value");
    return value;
  }

  #value(path: string): unknown {
    const ch = this.#skipSpace();
    if (ch === "{") return this.#object(path);
    if (ch === "[") return this.#array(path);
    if (ch === '"') return this.#string();
    if (ch === "-" || isDigit(ch)) return this.#number();
    if (ch === "t") return this.#literal("true", true);
    if (ch === "f") return this.#literal("false", false);
    if (ch === "n") return this.#literal("null", null);
    return this.#fail("looking for beginning of value");
  }

  #object(path: string): Record<string, unknown> {
    const obj: Record<string, unknown> = {};
    this.#pos++;
    if (this.#skipSpace() === "}") {
      this.#pos++;
      return obj;
    }
    for (;;) {
      if (this.#skipSpace() !== '"') this.#fail("looking for beginning of object key string");
      const key = this.#string();
      if (this.#skipSpace() !== ":") this.#fail("after object key");
      this.#pos++;
      const childPath = path === "" ? key : `${path}.${key}`;
      const value = this.#value(childPath);
      if (Object.hasOwn(obj, key)) this.duplicates.push(childPath);
      // defineProperty keeps "__proto__" an ordinary key, as JSON.parse does.
      Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
      const next = this.#skipSpace();
      this.#pos++;
      if (next === "}") return obj;
      if (next !== ",") {
        this.#pos--;
        this.#fail("after object key:value pair");
      }
    }
  }

  #array(path: string): unknown[] {
    const items: unknown[] = [];
    this.#pos++;
    if (this.#skipSpace() === "]") {
      this.#pos++;
      return items;
    }
    for (;;) {
      items.push(this.#value(`${path}[${items.length}]`));
      const next = this.#skipSpace();
      this.#pos++;
      if (next === "]") return items;
      if (next !== ",") {
        this.#pos--;
        this.#fail("after array element");
      }
    }
  }

  #string(): string {
    let out = "";
    let chunkStart = ++this.#pos;
    for (;;) {
      const ch = this.#text[this.#pos];
      if (ch === undefined) throw new JSONSyntaxError(END);
      if (ch === '"') {
        out += this.#text.slice(chunkStart, this.#pos++);
        return out;
      }
      if (ch < " ") this.#fail("in string literal");
      if (ch === "\\") {
        out += this.#text.slice(chunkStart, this.#pos++);
        out += this.#escape();
        chunkStart = this.#pos;
      } else {
        this.#pos++;
      }
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

/** Parses JSON text; throws JSONSyntaxError with Go's wording. Duplicate keys keep the last value and are listed by path. */
export function readJSON(text: string): { value: unknown; duplicateFields: string[] } {
  const reader = new Reader(text);
  const value = reader.document();
  return { value, duplicateFields: reader.duplicates };
}

/** Object members written in valid JSON text: every ':' outside a string follows a key. */
export function countWrittenMembers(text: string): number {
  let count = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x3a) count++;
  }
  return count;
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
