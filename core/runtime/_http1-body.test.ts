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
