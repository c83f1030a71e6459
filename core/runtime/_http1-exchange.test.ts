import { expect, test } from "bun:test";
import { Buffer } from "node:buffer";
import type { TLSSocket } from "node:tls";
import { Http1Request, Http1Response } from "./_http1-exchange.ts";
import { parseHead } from "./_http1-head.ts";

/** A socket that records what is written to it and calls write callbacks at once. */
function recordingSocket(): { socket: TLSSocket; written: () => string } {
  const chunks: Buffer[] = [];
  const socket = {
    write(bytes: Uint8Array | string, encodingOrCallback?: "latin1" | (() => void), callback?: () => void) {
      chunks.push(typeof bytes === "string" ? Buffer.from(bytes, "latin1") : Buffer.from(bytes));
      (typeof encodingOrCallback === "function" ? encodingOrCallback : callback)?.();
      return true;
    },
    destroy() {},
  } as unknown as TLSSocket;
  return { socket, written: () => Buffer.concat(chunks).toString("latin1") };
}

const noFlow = { pauseBody() {}, resumeBody() {} };

function exchangeFor(head: string, closes = false) {
  const { socket, written } = recordingSocket();
  const request = new Http1Request(parseHead(head), socket, noFlow);
  const response = new Http1Response(request, socket, closes, () => {});
  let closed = 0;
  response.on("close", () => closed++);
  return { response, written, closed: () => closed };
}

const DATE = /\r\nDate: [A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT\r\n/;

test("chunkWriter.writeHeader: an answer ended in one call gets its Content-Length and a Date, head and body in one write", () => {
  const { response, written, closed } = exchangeFor("GET / HTTP/1.1\r\nHost: k");
  response.writeHead(200, { "content-type": "text/plain" });
  response.end(Buffer.from("hello"));
  expect(written()).toMatch(/^HTTP\/1\.1 200 OK\r\ncontent-type: text\/plain\r\ncontent-length: 5\r\nDate: [^\r]+\r\n\r\nhello$/);
  expect(written()).toMatch(DATE);
  expect(response.writableFinished).toBe(true);
  expect(closed()).toBe(1);
});

test("chunkWriter.writeHeader: a text body ended with the head goes out as UTF-8 after it, its Content-Length in bytes", () => {
  const { response, written, closed } = exchangeFor("GET / HTTP/1.1\r\nHost: k");
  response.writeHead(200, { "content-type": "text/plain" });
  response.end("h\u00e9llo \u2713");
  expect(written()).toMatch(/^HTTP\/1\.1 200 OK\r\ncontent-type: text\/plain\r\ncontent-length: 10\r\nDate: [^\r]+\r\n\r\n/);
  expect(Buffer.from(written(), "latin1").subarray(-10).toString("utf8")).toBe("h\u00e9llo \u2713");
  expect(closed()).toBe(1);
});

test("an answer of unknown length on HTTP/1.1 goes out in chunks, ended by the zero chunk", () => {
  const { response, written } = exchangeFor("GET / HTTP/1.1\r\nHost: k");
  response.writeHead(200, {});
  response.flushHeaders();
  response.write(Buffer.from("abc"));
  response.write(Buffer.alloc(0));
  response.end();
  expect(written()).toMatch(/^HTTP\/1\.1 200 OK\r\ntransfer-encoding: chunked\r\nDate: [^\r]+\r\n\r\n3\r\nabc\r\n0\r\n\r\n$/);
});

test("HEAD and bodyless statuses (bodyAllowedForStatus) send no body; HEAD keeps the GET's Content-Length", () => {
  const head = exchangeFor("HEAD / HTTP/1.1\r\nHost: k");
  head.response.writeHead(200, { "content-length": 5 });
  head.response.end(Buffer.from("hello"));
  expect(head.written()).toMatch(/^HTTP\/1\.1 200 OK\r\ncontent-length: 5\r\nDate: [^\r]+\r\n\r\n$/);
  const noContent = exchangeFor("DELETE / HTTP/1.1\r\nHost: k");
  noContent.response.writeHead(204, {});
  noContent.response.end();
  expect(noContent.written()).toMatch(/^HTTP\/1\.1 204 No Content\r\nDate: [^\r]+\r\n\r\n$/);
});

test("a request that asked to close gets Connection: close on HTTP/1.1 and none on HTTP/1.0; a kept one none at all", () => {
  const closing = exchangeFor("GET / HTTP/1.1\r\nHost: k", true);
  closing.response.writeHead(200, {});
  closing.response.end();
  expect(closing.written()).toContain("\r\nconnection: close\r\n");
  expect(closing.response.closes).toBe(true);
  const http10 = exchangeFor("GET / HTTP/1.0", true);
  http10.response.writeHead(200, {});
  http10.response.end();
  expect(http10.written()).toStartWith("HTTP/1.0 200 OK\r\n");
  expect(http10.written()).not.toMatch(/connection/i);
  const kept = exchangeFor("GET / HTTP/1.1\r\nHost: k");
  kept.response.writeHead(200, {});
  kept.response.end();
  expect(kept.written()).not.toMatch(/connection|keep-alive/i);
  expect(kept.response.closes).toBe(false);
});

test("wantsHttp10KeepAlive: an HTTP/1.0 answer saying keep-alive keeps the connection; one of unknown length ends it", () => {
  const kept = exchangeFor("GET / HTTP/1.0\r\nConnection: keep-alive");
  kept.response.writeHead(200, { "content-length": 2, connection: "keep-alive" });
  kept.response.end(Buffer.from("ok"));
  expect(kept.response.closes).toBe(false);
  const streamed = exchangeFor("GET / HTTP/1.0\r\nConnection: keep-alive");
  streamed.response.writeHead(200, {});
  streamed.response.write(Buffer.from("ok"));
  streamed.response.end();
  expect(streamed.written()).toMatch(/^HTTP\/1\.0 200 OK\r\nDate: [^\r]+\r\n\r\nok$/);
  expect(streamed.response.closes).toBe(true);
});

test("a header's characters are written one byte each, as Go writes a value's bytes; a handler's Date is kept alone", () => {
  const { response, written } = exchangeFor("GET / HTTP/1.1\r\nHost: k");
  const utf8 = Buffer.from('299 - "→ 😀"').toString("latin1");
  response.writeHead(599, { "x-warning": [utf8, '299 - "b"'], Date: "Mon, 02 Jan 2006 15:04:05 GMT" });
  response.end();
  const bytes = written();
  expect(bytes).toStartWith("HTTP/1.1 599 status code 599\r\n");
  expect(bytes).toContain(`\r\nx-warning: ${utf8}\r\nx-warning: 299 - "b"\r\n`);
  expect(bytes.match(/date:/gi)).toHaveLength(1);
});

test("Header.Write's headerNewlineToSpace: a CR or LF in a value goes out as a space, so a value cannot add a field", () => {
  const { response, written } = exchangeFor("GET / HTTP/1.1\r\nHost: k");
  response.writeHead(200, { "x-one": "a\r\nSet-Cookie: s=1", "x-list": ["b\nc", "d"] });
  response.end();
  const bytes = written();
  expect(bytes).toContain("\r\nx-one: a  Set-Cookie: s=1\r\nx-list: b c\r\nx-list: d\r\n");
  expect(bytes).not.toContain("\r\nSet-Cookie");
});

test("the client going away before the answer is out closes the response as destroyed, once", () => {
  const { response, closed } = exchangeFor("GET / HTTP/1.1\r\nHost: k");
  response.writeHead(200, {});
  response.flushHeaders();
  response.connectionClosed();
  response.connectionClosed();
  expect(response.destroyed).toBe(true);
  expect(response.writableFinished).toBe(false);
  expect(closed()).toBe(1);
  expect(response.write(Buffer.from("late"))).toBe(false);
});
