/**
 * What becomes of a request body the handler answered without reading to its end (a 413 from the body limit, a
 * 401 or 404 given before the body was wanted), decided before the answer's head as Go's net/http server does.
 * Over HTTP/1.1 the server reads and drops the rest looking for the body's end, so the connection can serve on,
 * counting from what the handler consumed. A body the handler gave up (kube's limitedReadBody closes it) follows
 * (*body).Close: a declared rest of maxPostHandlerReadBytes or more, or that many bytes read without the end,
 * closes the connection. A body the handler never touched follows (*chunkWriter).writeHeader: a declared rest of
 * maxPostHandlerReadBytes or more closes; otherwise up to maxPostHandlerReadBytes+1 bytes are read, and only
 * that many without the end closes. Over HTTP/2 (serverConn.wroteFrame) nothing more is read: the stream is reset
 * with NO_ERROR after the answer.
 * A request with "Expect: 100-continue" is told to send its body only when the handler first reads it (Go's
 * expectContinueReader); one answered before its body ended (*chunkWriter).writeHeader closes at once, reading
 * nothing more.
 * Go's copy has no deadline, so a client trickling its body could hold the answer back for as long as it trickles;
 * here the looking gives up after DRAIN_DEADLINE_MS and the answer goes out with the connection's end.
 */
import type { IncomingMessage } from "node:http";
import type { Http2ServerRequest } from "node:http2";

type BodyRequest = IncomingMessage | Http2ServerRequest;

/** Go's maxPostHandlerReadBytes (net/http server.go). */
export const MAX_POST_HANDLER_READ_BYTES = 256 << 10;

/** How long the answer waits for an unread body's end: a 401 or 413 must reach even a client that stalls. */
export const DRAIN_DEADLINE_MS = 2000;

/** What came of one request's body; the body stream (fetch-adapter.ts) keeps it up to date. */
export interface BodyProgress {
  received: number;
  /** Bytes the handler read out of the body stream. */
  consumed: number;
  ended: boolean;
  /** Its reader gave it up (a body over the size limit). */
  cancelled: boolean;
  /** Nobody will read the body any more: what still comes is dropped, not queued. */
  dropping: boolean;
  /** The client waits for "100 Continue" before its body, and it was not sent yet. */
  continuePending: boolean;
}

const progressOf = new WeakMap<BodyRequest, BodyProgress>();
const awaitingContinue = new WeakSet<BodyRequest>();

/** Marks a request the HTTP server passed on without sending "100 Continue" (its checkContinue event). */
export function awaitContinue(incoming: BodyRequest): void {
  awaitingContinue.add(incoming);
}

/** The progress record of a request that has a body stream. */
export function followBody(incoming: BodyRequest): BodyProgress {
  const continuePending = awaitingContinue.has(incoming);
  const progress: BodyProgress = { received: 0, consumed: 0, ended: false, cancelled: false, dropping: false, continuePending };
  progressOf.set(incoming, progress);
  return progress;
}

/**
 * Undefined when the request had no body or all of it came; otherwise resolves, once the server has done what Go's
 * does with the rest, true when the answer must end the connection (HTTP/1.1) or the stream (HTTP/2). A body
 * a reader still holds, not cancelled, belongs to a handler answered for by the request deadline's 504 that may
 * still wait on it stalled: it cannot be drained, so that connection ends with the answer at once.
 */
export function settleUnreadBody(incoming: BodyRequest, request: Request): Promise<boolean> | undefined {
  const progress = progressOf.get(incoming);
  if (progress === undefined) return undefined;
  const stillRead = request.body?.locked === true && !progress.cancelled;
  // A body announced by "Expect: 100-continue" the handler did not read to its end is never drained, though all of
  // it may have come: the bytes that follow may be the body sent after the client's timer or the next request.
  if (awaitingContinue.has(incoming) && !(progress.ended && stillRead)) {
    progress.dropping = true;
    return Promise.resolve(true);
  }
  if (progress.ended || !sendsBody(incoming)) return undefined;
  progress.dropping = true;
  if (incoming.httpVersionMajor === 2 || stillRead) return Promise.resolve(true);
  // A stream nobody took a reader from was never read: what it pulled in early is still the handler's rest.
  const consumed = request.body?.locked === true ? progress.consumed : 0;
  const declared = Number(incoming.headers["content-length"]);
  if (declared - consumed >= MAX_POST_HANDLER_READ_BYTES) return Promise.resolve(true);
  const limit = progress.cancelled ? MAX_POST_HANDLER_READ_BYTES : MAX_POST_HANDLER_READ_BYTES + 1;
  return discardUpTo(incoming, progress, consumed + limit);
}

/** Whether the request has a body at all, though its end may not have been seen yet (a DELETE usually has none). */
function sendsBody(incoming: BodyRequest): boolean {
  if (incoming.httpVersionMajor === 2) return !(incoming as Http2ServerRequest).stream.endAfterHeaders;
  const length = incoming.headers["content-length"];
  return length === undefined ? incoming.headers["transfer-encoding"] !== undefined : Number(length) !== 0;
}

/**
 * Reads and drops what comes until the body ends (false), or `stopAt` bytes of it came or DRAIN_DEADLINE_MS passed
 * without its end (true).
 */
function discardUpTo(incoming: BodyRequest, progress: BodyProgress, stopAt: number): Promise<boolean> {
  // A body whose connection already ended or broke has no end to look for.
  if (progress.received >= stopAt || (incoming as { destroyed?: boolean }).destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    const stop = (closes: boolean) => {
      clearTimeout(deadline);
      incoming.off("data", counted);
      incoming.off("end", ended);
      incoming.off("close", broken);
      if (closes) incoming.pause();
      resolve(closes);
    };
    // The body stream's listener came first, so `received` already holds this chunk.
    const counted = () => progress.received >= stopAt && stop(true);
    const ended = () => stop(false);
    const broken = () => stop(true);
    const deadline = setTimeout(stop, DRAIN_DEADLINE_MS, true);
    incoming.on("data", counted);
    incoming.once("end", ended);
    incoming.once("close", broken);
    incoming.resume();
  });
}
