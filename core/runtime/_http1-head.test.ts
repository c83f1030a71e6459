import { expect, test } from "bun:test";
import { Buffer } from "node:buffer";
import { HEAD_TOO_LARGE, headEnd, MAX_HEADER_FIELDS, parseHead, UnreadableHead } from "./_http1-head.ts";

const PLAIN_400 = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request";

function refusal(head: string): string | undefined {
  try {
    parseHead(head);
    return undefined;
  } catch (error) {
    if (error instanceof UnreadableHead) return error.answer;
    throw error;
  }
}

test("readRequest: method, target as sent, version, fields with their names' case and joined repeats", () => {
  const head = parseHead("GET /api/v1/../x?a=b HTTP/1.1\r\nHost: k\r\nAccept: a\r\naccept: b\r\nX-Empty:\r");
  expect(head.method).toBe("GET");
  expect(head.target).toBe("/api/v1/../x?a=b");
  expect(head.versionMinor).toBe(1);
  expect(head.rawHeaders).toEqual(["Host", "k", "Accept", "a", "accept", "b", "X-Empty", ""]);
  expect(head.headers).toEqual({ host: "k", accept: "a, b", "x-empty": "" });
  expect(head.body).toBe(0);
});

test("textproto's readContinuedLineSlice: an obs-fold continues its field, joined with one space", () => {
  expect(parseHead("GET / HTTP/1.1\r\nHost: k\r\nX-Long: one  \r\n \t two\r\n three").headers["x-long"]).toBe("one two three");
});

test("readContinuedLineSlice: an empty continuation still adds its space; a field folded over 400 lines is joined whole", () => {
  expect(parseHead("GET / HTTP/1.1\r\nHost: k\r\nX-Fold: a\r\n \r\n b").headers["x-fold"]).toBe("a  b");
  const piece = "y".repeat(2000);
  const folded = parseHead(`GET / HTTP/1.1\r\nHost: k\r\nX-Big: ${Array(400).fill(piece).join("\r\n ")}`).headers["x-big"]!;
  expect(folded.length).toBe(400 * 2000 + 399);
});

test("textproto reads lines ending in a bare LF", () => {
  expect(parseHead("GET / HTTP/1.0\nHost: k").headers).toEqual({ host: "k" });
});

test("parseRequestLine, validMethod and readMIMEHeader: malformed lines are conn.serve's plain 400", () => {
  for (
    const head of [
      "GET /",
      "",
      "G(T / HTTP/1.1\r\nHost: k",
      "GET / HTTP/1.1\r\n Host: k",
      "GET / HTTP/1.1\r\nHost: k\r\nno colon",
      "GET / HTTP/1.1\r\nHost: k\r\nBad Name: x",
      "GET / HTTP/1.1\r\nHost: k\r\n: empty name",
      "GET / HTTP/1.1\r\nHost: k\r\nX-Ctl: a\u0001b",
      "GET / HTTP/1.1\r\nHost: k\r\nX-Nul: a\u0000",
      "GET / HTTP/x.1\r\nHost: k",
      "GET / HTTP/10.0\r\nHost: k",
      "GET / b HTTP/1.1\r\nHost: k",
    ]
  ) expect([head, refusal(head)]).toEqual([head, PLAIN_400]);
});

test("ParseHTTPVersion and http1ServerSupportsRequest: HTTP/1.x is served (1.2 as 1.1), other versions answer 505", () => {
  expect(parseHead("GET / HTTP/1.2\r\nHost: k").versionMinor).toBe(1);
  const status = "505 HTTP Version Not Supported: unsupported protocol version";
  for (const version of ["HTTP/2.0", "HTTP/0.9", "HTTP/3.0"]) {
    expect(refusal(`GET / ${version}\r\nHost: k`)).toBe(
      `HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${status}`,
    );
  }
});

test("readRequest's Host checks are badRequestErrors, their reason in the answer; HTTP/1.0 and CONNECT may go without", () => {
  const answer = (reason: string) =>
    `HTTP/1.1 400 Bad Request: ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request: ${reason}`;
  expect(refusal("GET / HTTP/1.1\r\nAccept: x")).toBe(answer("missing required Host header"));
  expect(refusal("GET / HTTP/1.1\r\nHost: a\r\nHost: b")).toBe(answer("too many Host headers"));
  for (const host of ["x/healthz?", "a@b", "a#b", "a b"]) {
    expect(refusal(`GET / HTTP/1.1\r\nHost: ${host}`)).toBe(answer("malformed Host header"));
  }
  expect(parseHead("GET / HTTP/1.0").headers).toEqual({});
  expect(parseHead("CONNECT k:443 HTTP/1.1").method).toBe("CONNECT");
  expect(parseHead("GET / HTTP/1.1\r\nHost:").headers).toEqual({ host: "" });
});

test("readTransfer: Content-Length, repeated alike, is the body's length; differing, signed or not decimal is a plain 400", () => {
  expect(parseHead("POST / HTTP/1.1\r\nHost: k\r\nContent-Length: 12").body).toBe(12);
  const repeated = parseHead("POST / HTTP/1.1\r\nHost: k\r\nContent-Length: 3\r\nContent-Length:  3 ");
  expect(repeated.body).toBe(3);
  expect(repeated.headers["content-length"]).toBe("3");
  for (const value of ["3\r\nContent-Length: 4", "-1", "+1", "0x10", "1 2", "", "1, 1", "99999999999999999999"]) {
    expect([value, refusal(`POST / HTTP/1.1\r\nHost: k\r\nContent-Length: ${value}`)]).toEqual([value, PLAIN_400]);
  }
});

test("readTransfer: chunked wins over Content-Length, which is dropped; another coding is conn.serve's 501", () => {
  const head = parseHead("POST / HTTP/1.1\r\nHost: k\r\nContent-Length: 5\r\nTransfer-Encoding: Chunked");
  expect(head.body).toBe("chunked");
  expect(head.headers["content-length"]).toBeUndefined();
  expect(head.rawHeaders).toEqual(["Host", "k", "Transfer-Encoding", "Chunked"]);
  const unsupported = "HTTP/1.1 501 Not Implemented\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n" +
    "Unsupported transfer encoding";
  for (const codings of ["gzip", "gzip, chunked", "chunked\r\nTransfer-Encoding: chunked"]) {
    expect(refusal(`POST / HTTP/1.1\r\nHost: k\r\nTransfer-Encoding: ${codings}`)).toBe(unsupported);
  }
});

test("readTransfer ignores Transfer-Encoding on HTTP/1.0", () => {
  const head = parseHead("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\nContent-Length: 2");
  expect(head.body).toBe(2);
  expect(head.headers["transfer-encoding"]).toBeUndefined();
});

test("headEnd: the blank line after the head, with CRLF or bare LF line ends, searched on from where it stopped", () => {
  const bytes = Buffer.from("GET / HTTP/1.1\r\nHost: k\r\n\r\nbody");
  expect(headEnd(bytes)).toEqual({ head: 24, next: 27 });
  expect(bytes.toString("latin1", 0, 24)).toBe("GET / HTTP/1.1\r\nHost: k\r");
  expect(headEnd(Buffer.from("GET / HTTP/1.1\nHost: k\n\nrest"))).toEqual({ head: 22, next: 24 });
  expect(headEnd(Buffer.from("GET / HTTP/1.1\r\nHost: k\r\n"))).toBeUndefined();
  expect(headEnd(bytes, 20)).toEqual({ head: 24, next: 27 });
});

test("a head of more than MAX_HEADER_FIELDS fields is answered 431, before any Headers is built from it", () => {
  const fields = (count: number) => Array.from({ length: count }, (_, i) => `h${i}: b`).join("\r\n");
  expect(parseHead(`GET / HTTP/1.1\r\nHost: k\r\n${fields(MAX_HEADER_FIELDS - 1)}`).rawHeaders).toHaveLength(2 * MAX_HEADER_FIELDS);
  expect(() => parseHead(`GET / HTTP/1.1\r\nHost: k\r\n${fields(90_000)}`)).toThrow(HEAD_TOO_LARGE);
});

test("readRequest's url.ParseRequestURI: a malformed request-target is conn.serve's plain 400, read before the version's 505", () => {
  for (const target of ["api", "/a%zz", "/a%", ":x", "http://host:port/", "http://[::1/", "/a\u007fb"]) {
    const head = `GET ${target} HTTP/1.1\r\nHost: k`;
    expect([head, refusal(head)]).toEqual([head, PLAIN_400]);
  }
  expect(refusal("GET api HTTP/2.0\r\nHost: k")).toBe(PLAIN_400);
  expect(parseHead("OPTIONS * HTTP/1.1\r\nHost: k").target).toBe("*");
  expect(parseHead("GET https://k/api HTTP/1.1\r\nHost: k").target).toBe("https://k/api");
});

test("(*conn).readRequest: the 505 comes after readRequest read the framing and before the Host checks", () => {
  expect(refusal("POST / HTTP/2.0\r\nHost: k\r\nTransfer-Encoding: gzip")).toStartWith("HTTP/1.1 501 Not Implemented\r\n");
  expect(refusal("GET / HTTP/2.0\r\nHost: a/b")).toStartWith("HTTP/1.1 505 ");
});

test("parseContentLength: strconv.ParseUint(cl, 10, 63) reads lengths up to 2^63-1, leading zeros too; 2^63 is a plain 400", () => {
  const declared = (value: string) => parseHead(`POST / HTTP/1.1\r\nHost: k\r\nContent-Length: ${value}`);
  expect(declared("9007199254740993").headers["content-length"]).toBe("9007199254740993");
  expect(declared("9223372036854775807").body).toBeGreaterThan(2 ** 62);
  expect(declared("0009").body).toBe(9);
  expect(refusal("POST / HTTP/1.1\r\nHost: k\r\nContent-Length: 9223372036854775808")).toBe(PLAIN_400);
});

test("readMIMEHeader: a name in any case keeps its case in rawHeaders and shares its lower-case key with the others", () => {
  const head = parseHead(
    "POST / HTTP/1.1\r\nHost: k\r\nContent-Type: a\r\ncontent-type: b\r\nCONTENT-TYPE: c\r\ncontent-Length: 2\r\nX-Other: d",
  );
  expect(head.rawHeaders).toEqual([
    "Host",
    "k",
    "Content-Type",
    "a",
    "content-type",
    "b",
    "CONTENT-TYPE",
    "c",
    "content-Length",
    "2",
    "X-Other",
    "d",
  ]);
  expect(head.headers).toEqual({ host: "k", "content-type": "a, b, c", "content-length": "2", "x-other": "d" });
  expect(head.body).toBe(2);
});

test("httpguts.ValidHeaderFieldValue: a control byte in a value, a CR inside one or before the line's CRLF, is refused; a tab is not", () => {
  for (const value of ["a\x01b", "a\x7f", "a\rb", "a\r", "\x00"]) {
    expect(refusal(`GET / HTTP/1.1\r\nHost: k\r\nX-Value: ${value}\r\nAccept: a\r`)).toBe(PLAIN_400);
    expect(refusal(`GET / HTTP/1.1\r\nHost: k\r\nX-Value: ${value}\r`)).toBe(PLAIN_400);
  }
  expect(parseHead("GET / HTTP/1.1\r\nHost: k\r\nX-Value: a\tb\r").headers["x-value"]).toBe("a\tb");
  expect(parseHead(`GET / HTTP/1.1\r\nHost: k\r\nAuthorization: Bearer ${"t".repeat(900)}\r`).headers.authorization).toHaveLength(907);
});

test("url.ParseRequestURI: a path's bad escape or control byte is refused, a good escape is not", () => {
  expect(refusal("GET /a%zz HTTP/1.1\r\nHost: k\r")).toBe(PLAIN_400);
  expect(refusal("GET /a\x01 HTTP/1.1\r\nHost: k\r")).toBe(PLAIN_400);
  expect(parseHead("GET /a%20b?c=%zz HTTP/1.1\r\nHost: k\r").target).toBe("/a%20b?c=%zz");
});
