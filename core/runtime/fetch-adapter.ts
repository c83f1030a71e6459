/**
 * Serves a fetch-style handler (Request in, Response out) from node:http and node:http2 compatibility requests.
 * Per request it builds one Request (URL, headers, a body stream only when there is a body) and writes the Response
 * with one writeHead and, for an answer whose body is already complete, one end(): a buffered answer leaves in one
 * write with its Content-Length, a streamed one (a watch) is flushed at once and written as its chunks arrive.
 */
import { Buffer } from "node:buffer";
import type { OutgoingHttpHeaders } from "node:http";
import type { Http2ServerRequest } from "node:http2";
import { httpDate } from "./http-date.ts";
import { followBody } from "./_unread-body.ts";
import { bodyAllowedForStatus, type Http10KeepAlive, keepHttp10Alive } from "./_http10-keep-alive.ts";
import { Http1Request, Http1Response } from "./_http1-exchange.ts";
import { answerGone, closedEarly, endResponse, type NodeRequest, type NodeResponse } from "./_node-response.ts";
import { madeRequest, ServedRequest, SIGNAL_MADE_WHEN_READ, wholeBodyTemplate } from "./_served-request.ts";
import { warningFields } from "./_warning-fields.ts";
import { CompleteResponse, fieldObject } from "./_complete-response.ts";

export { completeResponse, hasField, withField } from "./_complete-response.ts";
export type { NodeRequest, NodeResponse } from "./_node-response.ts";
export { completeRequestBody, requestBytes } from "./_served-request.ts";

/** Thrown for a request whose target or Host cannot name a URL; answered 400 as Go's net/http does. */
export class BadRequestTarget extends Error {}

/**
 * The bytes Go's httpguts.ValidHostHeader accepts in a Host header: "/", "?", "#", "@" and spaces cannot appear,
 * so a Host cannot change the path of the URL built from it.
 */
export const VALID_HOST = /^[A-Za-z0-9!$%&'()*+,\-.:;=[\]_~]*$/;
/** The URL's host for a request that named none (Go leaves Request.Host empty; a URL needs one). */
const HOST_WHEN_NONE = "localhost";
/** Connection-specific fields have no meaning in HTTP/2 (RFC 9113 section 8.2.2); Go's server drops them too. */
const HTTP1_ONLY_HEADERS = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"]);
const COLON = 58;
const NOT_READY = Symbol("not ready");

/** The sizes of the complete bodies left out of HEAD answers made by headAnswer. */
const headBodyBytes = new WeakMap<Response, number>();

/**
 * The answer to a HEAD served by its GET's handler: `response`'s status and headers, its body stopped (a watch's
 * stream too). A complete body's size is kept for writeResponse, which gives the HEAD the Content-Length Go's writer
 * would have given that body.
 */
export function headAnswer(response: Response): Response {
  const bytes = completeBodyBytes(response);
  if (response.body !== null && !response.bodyUsed && !response.body.locked) response.body.cancel().catch(ignoreStopFailure);
  const answer = new Response(null, response);
  if (bytes !== undefined) headBodyBytes.set(answer, bytes);
  return answer;
}

/** A body that fails to stop changes nothing of a HEAD's answer, which has none. */
function ignoreStopFailure(): void {}

/**
 * Go buffers what a handler writes before deciding the answer's framing: a handler that returns with its whole body
 * in that buffer gets a Content-Length, HEAD too when the body is not empty; one that wrote past it does not
 * (chunkWriter.writeHeader behind HTTP/1.x's bufferBeforeChunkingSize, 2048 bytes; HTTP/2's writeChunk behind
 * handlerChunkWriteSize, 4096).
 */
function headLength(response: Response, http2: boolean): number | undefined {
  const bytes = headBodyBytes.get(response);
  const buffered = http2 ? 4096 : 2048;
  return bytes !== undefined && bytes > 0 && bytes <= buffered && bodyAllowedForStatus(response.status) ? bytes : undefined;
}

/** Whether the Response was made by completeResponse and nobody has read its body. */
export function hasCompleteBody(response: Response): response is CompleteResponse {
  return response instanceof CompleteResponse && !response.bodyUsed;
}

/** The body of a Response made by completeResponse, as it was given, while nobody has read it; else undefined. */
export function completeBodyOf(response: Response): string | Uint8Array | undefined {
  return hasCompleteBody(response) ? response.completeBody : undefined;
}

/** The size in bytes of a complete body (see completeResponse); undefined for any other Response. */
export function completeBodyBytes(response: Response): number | undefined {
  if (!hasCompleteBody(response)) return undefined;
  const body = response.completeBody;
  return typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
}

function isHttp2(incoming: NodeRequest): incoming is Http2ServerRequest {
  return incoming.httpVersionMajor === 2;
}

/** "OPTIONS *" asks about the server, not a resource (Go's serverHandler.ServeHTTP answers it itself). */
export function asksGlobalOptions(incoming: NodeRequest): boolean {
  return incoming.url === "*" && incoming.method === "OPTIONS";
}

/**
 * The Request under the URL its target and host make. Go's ValidHostHeader accepts hosts no URL can hold ("a:b:c",
 * a port past 65535, "[zz]") and serves the request, which reads only the path and query: such a request is served
 * under the stand-in host a request without one gets.
 */
function servedRequest(
  incoming: NodeRequest,
  init: RequestInit | Request | undefined,
  aborter: AbortController | undefined,
  complete: Uint8Array | undefined,
): ServedRequest {
  const url = requestUrl(incoming);
  try {
    return madeRequest(url, init, aborter, complete);
  } catch (error) {
    if (!(error instanceof TypeError) || URL.canParse(url)) throw error;
    // A valid Host holds no "/" (VALID_HOST): the target starts at the first one after the scheme.
    const target = url.slice(url.indexOf("/", "https://".length));
    return madeRequest(`https://${HOST_WHEN_NONE}${target}`, init, aborter, complete);
  }
}

function requestUrl(incoming: NodeRequest): string {
  // The Request of an "OPTIONS *" names the server's root.
  const target = asksGlobalOptions(incoming) ? "/" : incoming.url ?? "";
  if (target.startsWith("/")) {
    const host = isHttp2(incoming) ? incoming.authority : incoming.headers.host;
    // Go's readRequest: HTTP/1.1 requires a Host; HTTP/1.0 may go without, and an empty one is valid.
    if (host === undefined && !isHttp2(incoming) && incoming.httpVersion !== "1.0") {
      throw new BadRequestTarget("missing required Host header");
    }
    if (!host) return `https://${HOST_WHEN_NONE}${target}`;
    if (!VALID_HOST.test(host)) throw new BadRequestTarget("malformed Host header");
    return `https://${host}${target}`;
  }
  // The absolute form (a proxy's request line); HTTP/2 has only the origin form in :path.
  if (!isHttp2(incoming) && /^https?:\/\//i.test(target) && URL.canParse(target)) return new URL(target).href;
  throw new BadRequestTarget("malformed request target");
}

/**
 * The request's fields, appended to the Request's own Headers: a Headers given in the Request's init is copied into
 * another one, and an init holding only a GET's method is read for nothing (together ~0.4-0.6 µs of a Request's
 * ~1.2 µs in a loop; bench/profiles/create-path.md, thirteenth session). Neither Bun nor Deno keeps a served
 * Request's fields from being set (no forbidden names server-side).
 */
function appendFields(headers: Headers, incoming: NodeRequest): void {
  const raw = incoming.rawHeaders;
  // HTTP/2 pseudo-headers (":path", ":authority", ...) are no header fields.
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]!.charCodeAt(0) !== COLON) headers.append(raw[i]!, raw[i + 1]!);
}

const BODY_HIGH_WATER_MARK = 64 * 1024;
/** Go's body.readLocked: the connection's end before the body's is io.ErrUnexpectedEOF, for a length or chunks alike. */
const CLIENT_GONE_MID_BODY = "unexpected EOF";

/** A request body that could not be read to its end: the client's doing (it left, or sent a malformed chunk). */
export class RequestBodyError extends Error {}

/**
 * The request body as a byte stream that pauses the socket while the handler has not read what came. A client
 * waiting for "100 Continue" gets it at the handler's first read, as Go's expectContinueReader sends it: the
 * stream's first pull (after start) and pulls made by an enqueue are no read.
 */
function requestBody(incoming: NodeRequest, outgoing: NodeResponse): ReadableStream<Uint8Array> {
  const progress = followBody(incoming);
  let finished = false;
  let enqueued = 0;
  let startPulled = false;
  let enqueuing = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      incoming.on("data", (chunk: Buffer) => {
        progress.received += chunk.byteLength;
        if (finished || progress.dropping) return;
        enqueuing = true;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        enqueuing = false;
        enqueued += chunk.byteLength;
        if ((controller.desiredSize ?? 1) <= 0) incoming.pause();
      });
      incoming.once("end", () => {
        progress.ended = true;
        if (!finished) controller.close();
        finished = true;
      });
      incoming.once("close", () => {
        if (!finished) controller.error(new RequestBodyError((incoming as { bodyError?: string }).bodyError ?? CLIENT_GONE_MID_BODY));
        finished = true;
      });
    },
    // Called after every read that leaves room: what left the queue is what the handler consumed.
    pull(controller) {
      if (progress.continuePending && startPulled && !enqueuing) {
        progress.continuePending = false;
        outgoing.writeContinue?.();
      }
      startPulled = true;
      progress.consumed = enqueued - (BODY_HIGH_WATER_MARK - (controller.desiredSize ?? 0));
      incoming.resume();
    },
    // A handler that stops reading (a body over the size limit) leaves the rest to settleUnreadBody, before its answer.
    cancel() {
      finished = true;
      progress.cancelled = true;
    },
  }, { highWaterMark: BODY_HIGH_WATER_MARK, size: (chunk) => chunk?.byteLength ?? 0 });
}

/** The Request of a node request; its signal aborts when the client goes away before the answer is written. */
export function toRequest(incoming: NodeRequest, outgoing: NodeResponse): Request {
  const method = incoming.method ?? "GET";
  const complete = incoming instanceof Http1Request && method !== "GET" && method !== "HEAD" ? incoming.completeBody : undefined;
  const template = complete ? wholeBodyTemplate(method) : undefined;
  const request = template
    ? servedRequest(incoming, template, undefined, complete)
    : servedRequestWithInit(incoming, outgoing, method, complete);
  appendFields(request.headers, incoming);
  if (outgoing instanceof Http1Response) outgoing.servedRequest = request;
  else closedWith(outgoing, request);
  return request;
}

/** A served Request given its method, body and signal in an init. */
function servedRequestWithInit(incoming: NodeRequest, outgoing: NodeResponse, method: string, complete: Buffer | undefined): ServedRequest {
  const init: RequestInit & { duplex?: "half" } = { method };
  if (method !== "GET" && method !== "HEAD") {
    // A socket's bytes are never in shared memory, which BodyInit refuses.
    if (complete) init.body = complete as Uint8Array<ArrayBuffer>;
    else {
      init.body = requestBody(incoming, outgoing);
      init.duplex = "half";
    }
  }
  const aborter = SIGNAL_MADE_WHEN_READ ? undefined : new AbortController();
  if (aborter) init.signal = aborter.signal;
  return servedRequest(incoming, method === "GET" && !aborter ? undefined : init, aborter, complete);
}

/** Apart from toRequest, so that a request of kubun's HTTP/1.x layer makes no scope for this closure. */
function closedWith(outgoing: NodeResponse, request: ServedRequest): void {
  // A response closes once; `on` spares the wrapper `once` makes (three heap cells per request).
  outgoing.on("close", () => request.answerClosed(outgoing));
}

/**
 * A header's bytes go out as they are, as Go writes them: a Response holds them one character per byte (a Warning's
 * UTF-8, see core/server/warning-headers.ts), which node:http2 and kubun's HTTP/1.x writer (_http1-exchange.ts) write
 * byte for byte. Deno's node:http writes a head's strings as UTF-8: the UTF-8 of U+0080..U+00FF is handed to it as
 * that character, so its bytes leave as they are; a character past U+00FF, or a byte that is no UTF-8, leaves as "?",
 * since its bytes re-encoded would reach a Go client as control characters (client-go drops such a warning and the
 * rest).
 */
const NON_ASCII = /[\x80-\uffff]/;
/** Under Bun, HTTP/1.x heads are kubun's own (_http1-exchange.ts), written byte for byte; Deno's node:http remains. */
const UTF8_HEAD_WRITER = "Deno" in globalThis;
const HEAD_UNWRITABLE = /([\xc2\xc3][\x80-\xbf])|[\xc4-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}|[\x80-\xff]/g;

function forHttp1Head(value: string): string {
  if (!NON_ASCII.test(value)) return value;
  return value.replace(
    HEAD_UNWRITABLE,
    (_, latin1?: string) => latin1 ? String.fromCharCode(((latin1.charCodeAt(0) & 0x1f) << 6) | (latin1.charCodeAt(1) & 0x3f)) : "?",
  );
}

/** `fields` (Set-Cookie's list among them) as Bun's HTTP/1.1 head writer needs them. */
function forUtf8Head(fields: OutgoingHttpHeaders): OutgoingHttpHeaders {
  for (const name in fields) {
    const value = fields[name];
    if (typeof value === "string") fields[name] = forHttp1Head(value);
    else if (Array.isArray(value)) fields[name] = value.map(forHttp1Head);
  }
  return fields;
}

/** Through the index signature: node's OutgoingHttpHeaders types Warning as one string, writeHead takes a list. */
const WARNING: string = "warning";

/**
 * A Response's headers for node:http(2): Set-Cookie and Warning as lists (one field each, never comma-joined),
 * HTTP/1-only ones left out on h2.
 */
export function responseHeaders(headers: Headers, http2: boolean): OutgoingHttpHeaders {
  const fields = headerFields(headers, http2);
  const warning = fields[WARNING];
  if (typeof warning === "string") fields[WARNING] = warningFields(warning);
  return http2 || !UTF8_HEAD_WRITER ? fields : forUtf8Head(fields);
}

function headerFields(headers: Headers, http2: boolean): OutgoingHttpHeaders {
  // Per request: forEach calls back into JavaScript once per field, and getSetCookie is one more native call.
  if (fieldObject) {
    const fields: OutgoingHttpHeaders = fieldObject.call(headers);
    if (http2) { for (const name of HTTP1_ONLY_HEADERS) delete fields[name]; }
    return fields;
  }
  const out: OutgoingHttpHeaders = {};
  headers.forEach((value, name) => {
    if (name !== "set-cookie" && !(http2 && HTTP1_ONLY_HEADERS.has(name))) out[name] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) out["set-cookie"] = cookies;
  return out;
}

/** The promise's value if it has already settled, else NOT_READY (after two microtask turns, not a timer). */
function settledNow<T>(promise: Promise<T>): Promise<T | typeof NOT_READY> {
  return Promise.race([promise, Promise.resolve().then((): typeof NOT_READY => NOT_READY)]);
}

function drained(outgoing: NodeResponse): Promise<void> {
  // A closed answer sends no 'drain' and has sent its 'close'.
  if (answerGone(outgoing)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off("drain", done);
      outgoing.off("close", done);
      resolve();
    };
    outgoing.on("drain", done);
    outgoing.on("close", done);
  });
}

/** The status line and headers; node:http2 dates its answers itself, Bun's node:http would format a Date per answer. */
function writeHead(outgoing: NodeResponse, status: number, headers: OutgoingHttpHeaders, http2: boolean): void {
  if (!http2 && headers.date === undefined) headers.Date = httpDate();
  outgoing.writeHead(status, headers);
}

/**
 * A whole answer: head and body gathered into one write (Bun's node:http writes them separately otherwise). Its
 * length is known, so it keeps an HTTP/1.0 connection that asked to be kept (`keepAlive`).
 */
function writeWhole(
  outgoing: NodeResponse,
  status: number,
  headers: OutgoingHttpHeaders,
  http2: boolean,
  corked: Corkable | undefined,
  keepAlive: Http10KeepAlive | undefined,
  body?: Uint8Array | string,
): void {
  const bytes = body === undefined ? 0 : typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  if (body !== undefined) headers["content-length"] ??= bytes;
  if (keepAlive) keepHttp10Alive(headers, status, keepAlive, bytes);
  corked?.cork();
  writeHead(outgoing, status, headers, http2);
  endResponse(outgoing, body);
  corked?.uncork();
}

type Corkable = { cork(): void; uncork(): void };

/**
 * Writes the Response: at once when its body is complete (no promise), else resolving when its body has been handed
 * to the socket (or the client went away). `corked` is an HTTP/1.1 connection's socket, whose writes of one
 * complete answer are gathered into one. `connection` announces that the HTTP/1.1 connection ends with this
 * answer ("close"), or that an HTTP/1.0 request asked to keep it.
 */
export function writeResponse(
  response: Response,
  outgoing: NodeResponse,
  http2: boolean,
  corked?: Corkable,
  connection?: "close" | Http10KeepAlive,
): void | Promise<void> {
  // A complete answer's kept fields are Bun's (HTTP/1.x only: HTTP/2 leaves out some fields, from its Headers).
  const kept = !http2 && response instanceof CompleteResponse ? response.wireFields() : undefined;
  const headers = kept ?? responseHeaders(response.headers, http2);
  if (connection === "close" && !http2) headers.connection = "close";
  const keepAlive = connection === "close" ? undefined : connection;
  if (hasCompleteBody(response)) {
    // A text body is encoded by the writer (kubun's HTTP/1.x writer, straight into the answer's one buffer).
    return writeWhole(outgoing, response.status, headers, http2, corked, keepAlive, response.completeBody);
  }
  if (!response.body) {
    const headBytes = headLength(response, http2);
    if (headBytes !== undefined) headers["content-length"] ??= headBytes;
    return writeWhole(outgoing, response.status, headers, http2, corked, keepAlive);
  }
  return writeStream(response.status, response.body, headers, outgoing, http2, corked, keepAlive);
}

async function writeStream(
  status: number,
  body: ReadableStream<Uint8Array>,
  headers: OutgoingHttpHeaders,
  outgoing: NodeResponse,
  http2: boolean,
  corked: Corkable | undefined,
  keepAlive: Http10KeepAlive | undefined,
): Promise<void> {
  const reader = body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  // A connection that closed before the handler answered (its request waited for its wave, or the handler for
  // something) sent its 'close' already: the body is cancelled now, or nothing would ever end it.
  if (answerGone(outgoing)) return cancel();
  outgoing.once("close", () => {
    if (closedEarly(outgoing)) cancel();
  });
  // Go cancels the request's context at the client's EOF, and kube's streaming handlers return on it (the watch's
  // WatchServer.HandleHTTP, `case <-done`): the body ends here and the answer is ended as a returned handler's is,
  // at once when the client ended its side before the handler answered.
  if (clientEndedBeforeAnswer(outgoing)) cancel();
  else outgoing.once("client-end", cancel);
  // What the body already holds is taken without waiting, so a complete answer leaves in one write.
  const ready: Uint8Array[] = [];
  let next = reader.read();
  for (let result = await settledNow(next); result !== NOT_READY; result = await settledNow(next)) {
    if (result.done) {
      return writeWhole(outgoing, status, headers, http2, corked, keepAlive, ready.length === 1 ? ready[0]! : Buffer.concat(ready));
    }
    ready.push(result.value);
    next = reader.read();
  }
  // Streamed on without a length: an HTTP/1.0 connection closes after it, as node:http (and Go) end it.
  writeHead(outgoing, status, headers, http2);
  for (const chunk of ready) outgoing.write(chunk);
  // A stream with nothing to say yet (a watch) still owes the client its status and headers now.
  if (ready.length === 0) outgoing.flushHeaders?.();
  for (let result = await next; !result.done && !answerGone(outgoing); result = await reader.read()) {
    if (!outgoing.write(result.value)) await drained(outgoing);
  }
  if (!answerGone(outgoing)) endResponse(outgoing);
  else cancel();
}

/** The client of kubun's HTTP/1.x layer ended its side before this answer was written (Go: its context is cancelled). */
export function clientEndedBeforeAnswer(outgoing: NodeResponse): boolean {
  return outgoing instanceof Http1Response && outgoing.clientHasEnded;
}
