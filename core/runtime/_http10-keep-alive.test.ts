import { expect, test } from "bun:test";
import type { IncomingMessage, OutgoingHttpHeaders } from "node:http";
import { http10KeepAliveOf, keepHttp10Alive } from "./_http10-keep-alive.ts";

const request = (minor: number, method: string, connection?: string) =>
  ({ httpVersionMajor: 1, httpVersionMinor: minor, method, headers: connection === undefined ? {} : { connection } }) as IncomingMessage;

test("wantsHttp10KeepAlive: only an HTTP/1.0 request with a keep-alive token in Connection asks, HEAD told apart", () => {
  expect(http10KeepAliveOf(request(0, "GET", "Keep-Alive"))).toBe("http10-keep-alive");
  expect(http10KeepAliveOf(request(0, "POST", "TE, keep-alive"))).toBe("http10-keep-alive");
  expect(http10KeepAliveOf(request(0, "HEAD", "keep-alive"))).toBe("http10-keep-alive-head");
  expect(http10KeepAliveOf(request(0, "GET"))).toBeUndefined();
  expect(http10KeepAliveOf(request(0, "GET", "keep-alive-please"))).toBeUndefined();
  expect(http10KeepAliveOf(request(1, "GET", "keep-alive"))).toBeUndefined();
});

test("(*chunkWriter).writeHeader: a known-length answer keeps the connection, a finished body gets its Content-Length", () => {
  const kept = (status: number, keepAlive: "http10-keep-alive" | "http10-keep-alive-head", headers: OutgoingHttpHeaders = {}) => {
    keepHttp10Alive(headers, status, keepAlive, 0);
    return headers;
  };
  expect(kept(200, "http10-keep-alive")).toEqual({ "content-length": 0, connection: "keep-alive" });
  expect(kept(200, "http10-keep-alive", { "content-length": 7 })).toEqual({ "content-length": 7, connection: "keep-alive" });
  expect(kept(204, "http10-keep-alive")).toEqual({ connection: "keep-alive" });
  expect(kept(304, "http10-keep-alive")).toEqual({ connection: "keep-alive" });
  expect(kept(200, "http10-keep-alive-head")).toEqual({ connection: "keep-alive" });
  expect(kept(200, "http10-keep-alive", { connection: "close" })).toEqual({ connection: "close" });
});
