/**
 * HTTP/1.0 keep-alive as Go's net/http server gives it. A request asks for it with a "keep-alive" token in its
 * Connection header ((*Request).wantsHttp10KeepAlive). HTTP/1.0 has no chunking, so the answer keeps the connection,
 * saying "Connection: keep-alive", only when its end is known: a HEAD, a Content-Length (a finished handler's short
 * body gets one), or a status without a body ((*chunkWriter).writeHeader); any other answer closes. Bun's node:http
 * closes every HTTP/1.0 connection unless the answer itself says "keep-alive".
 */
import type { IncomingMessage, OutgoingHttpHeaders } from "node:http";

/** What an HTTP/1.0 keep-alive request's answer needs to know; HEAD answers send no body, so need no length. */
export type Http10KeepAlive = "http10-keep-alive" | "http10-keep-alive-head";

/** Whether the request is HTTP/1.0 asking to keep its connection, and so how its answer may keep it. */
export function http10KeepAliveOf(incoming: IncomingMessage): Http10KeepAlive | undefined {
  if (incoming.httpVersionMajor !== 1 || incoming.httpVersionMinor !== 0) return undefined;
  if (!hasToken(incoming.headers.connection, "keep-alive")) return undefined;
  return incoming.method === "HEAD" ? "http10-keep-alive-head" : "http10-keep-alive";
}

/**
 * Marks a whole answer, its body of `bodyBytes` in hand, as keeping the connection, giving it the Content-Length
 * Go gives a finished handler's answer; an answer already saying how its connection ends (a closing one) is left.
 */
export function keepHttp10Alive(headers: OutgoingHttpHeaders, status: number, keepAlive: Http10KeepAlive, bodyBytes: number): void {
  if (headers.connection !== undefined) return;
  if (keepAlive === "http10-keep-alive" && bodyAllowedForStatus(status)) headers["content-length"] ??= bodyBytes;
  headers.connection = "keep-alive";
}

/** Go's bodyAllowedForStatus: no body for 1xx, 204 and 304. */
export function bodyAllowedForStatus(status: number): boolean {
  return !(status >= 100 && status <= 199) && status !== 204 && status !== 304;
}

/** Go's hasToken: `token` is one of the comma-separated, case-insensitive tokens of the header's value. */
export function hasToken(value: string | string[] | number | undefined, token: string): boolean {
  if (typeof value !== "string") return false;
  for (const part of value.split(",")) if (part.trim().toLowerCase() === token) return true;
  return false;
}
