import { expect, test } from "bun:test";
import { Buffer } from "node:buffer";
import { BodyDecoder, MalformedChunk } from "./_http1-body.ts";

/** Feeds `pieces` one read at a time; answers the body, whether it ended, and what followed it. */
function decode(body: number | "chunked", pieces: string[]): { body: string; done: boolean; rest: string } {
  const decoder = new BodyDecoder(body);
  let out = "";
  let rest = "";
  for (const piece of pieces) {
    const bytes = Buffer.from(piece, "latin1");
    const taken = decoder.take(bytes, 0, (part) => (out += part.toString("latin1")));
    rest += bytes.toString("latin1", taken);
  }
  return { body: out, done: decoder.done, rest };
}

test("a declared length takes that many bytes, across reads, and leaves the next request's", () => {
  expect(decode(5, ["ab", "cdeGET / HTTP/1.1"])).toEqual({ body: "abcde", done: true, rest: "GET / HTTP/1.1" });
  expect(decode(5, ["ab"])).toEqual({ body: "ab", done: false, rest: "" });
  expect(new BodyDecoder(0).done).toBe(true);
});

test("chunkedReader: sizes in hex, extensions ignored, trailers read and ignored up to the blank line", () => {
  const wire = "5;name=value\r\nhello\r\nA \r\n, world!!!\r\n0\r\nX-Trailer: t\r\n\r\nNEXT";
  expect(decode("chunked", [wire])).toEqual({ body: "hello, world!!!", done: true, rest: "NEXT" });
  // Split anywhere, byte by byte.
  expect(decode("chunked", [...wire])).toEqual({ body: "hello, world!!!", done: true, rest: "NEXT" });
  expect(decode("chunked", ["3\nabc\r\n0\n\n"])).toEqual({ body: "abc", done: true, rest: "" });
});

test("chunkedReader's refusals: an empty or non-hex size, no CRLF after the data, a size line past 4096 bytes", () => {
  for (
    const wire of [
      "\r\n",
      "x\r\n",
      "-1\r\n",
      "5 ;x\r\nhello\r\n",
      "3\r\nabcX\r\n",
      "3\r\nabc\n",
      `1${"0".repeat(16)}\r\n`,
      "1".repeat(5000),
    ]
  ) {
    expect(() => decode("chunked", [wire])).toThrow(MalformedChunk);
  }
});

/** The error a chunked body ending in `trailer` (its lines, then the blank line) meets, or "read". */
function trailerOutcome(trailer: string): string {
  try {
    decode("chunked", [`1\r\na\r\n0\r\n${trailer}\r\n`]);
    return "read";
  } catch (error) {
    if (error instanceof MalformedChunk) return error.message;
    throw error;
  }
}

test("body.readTrailer: trailer lines are read with textproto's ReadMIMEHeader rules, continuations joined", () => {
  expect(trailerOutcome("")).toBe("read");
  expect(trailerOutcome("X-Sum: abc\r\nX-Long: one\r\n two\r\n")).toBe("read");
  expect(trailerOutcome(" X-Folded: v\r\n")).toBe("malformed MIME header initial line:  X-Folded: v");
  expect(trailerOutcome("no colon here\r\n")).toBe('malformed MIME header: missing colon: "no colon here"');
  expect(trailerOutcome('say "\x01"\r\n')).toBe('malformed MIME header: missing colon: "say \\"\\x01\\""');
  expect(trailerOutcome("Bad Name: v\r\n")).toBe("malformed MIME header line: Bad Name: v");
  expect(trailerOutcome(": empty name\r\n")).toBe("malformed MIME header line: : empty name");
  expect(trailerOutcome("X-Ctl: a\x7fb\r\n")).toBe("malformed MIME header line: X-Ctl: a\x7fb");
  expect(trailerOutcome("X-Long: one  \r\n\t\x00\r\n")).toBe("malformed MIME header line: X-Long: one \x00");
});

test("body.readTrailer: a trailer whose end is not within the connection's 4096-byte buffer is refused", () => {
  const long = "http: suspiciously long trailer after chunked body";
  expect(trailerOutcome(`X-Big: ${"v".repeat(4000)}\r\n`)).toBe("read");
  expect(trailerOutcome(`X-Big: ${"v".repeat(5000)}\r\n`)).toBe(long);
  expect(trailerOutcome(`${"X-Many: v\r\n".repeat(400)}`)).toBe(long);
});
