/**
 * The node:http and node:http2 compatibility requests and responses the fetch adapter serves, and whether an answer's
 * end was written: a response closed before it was, the client went away.
 */
import type { IncomingMessage, OutgoingHttpHeaders } from "node:http";
import type { Http2ServerRequest } from "node:http2";
import { Http1Response } from "./_http1-exchange.ts";

export type NodeRequest = IncomingMessage | Http2ServerRequest;

/** What node:http's ServerResponse and node:http2's compatibility response both offer. */
export interface NodeResponse {
  writeHead(status: number, headers: OutgoingHttpHeaders): unknown;
  write(chunk: Uint8Array): boolean;
  end(chunk?: Uint8Array | string): unknown;
  /** node:http only; an HTTP/2 response sends its head on writeHead. */
  flushHeaders?(): void;
  /** Sends "100 Continue" to a client waiting for it before its body. */
  writeContinue?(): void;
  destroy(): unknown;
  readonly destroyed: boolean;
  readonly writableFinished: boolean;
  on(event: "close" | "drain", listener: () => void): unknown;
  /** "client-end": kubun's HTTP/1.x layer only, the client ended its side before the answer was out. */
  once(event: "close" | "client-end", listener: () => void): unknown;
  off(event: "close" | "drain", listener: () => void): unknown;
}

/**
 * Responses of node:http(2) whose end this adapter has written. kubun's own HTTP/1.x answer is finished only by the
 * write that ends it, so its `writableFinished` says as much without this set (a WeakSet's add and has per answer).
 */
const ended = new WeakSet<NodeResponse>();

export function endResponse(outgoing: NodeResponse, chunk?: Uint8Array | string): void {
  if (!(outgoing instanceof Http1Response)) ended.add(outgoing);
  outgoing.end(chunk);
}

/**
 * Whether a closed response closed before its answer was out: the client went away. Bun reports an HTTP/2 stream the
 * client reset as finished, so what counts is whether the end was written here at all.
 */
export function closedEarly(outgoing: NodeResponse): boolean {
  return !outgoing.writableFinished || (!(outgoing instanceof Http1Response) && !ended.has(outgoing));
}

/**
 * Whether nothing more can be written to this answer: its connection closed, or its HTTP/2 stream was reset. Bun's
 * Http2ServerResponse has no `destroyed` of its own; its stream has.
 */
export function answerGone(outgoing: NodeResponse): boolean {
  return outgoing.destroyed || (outgoing as { stream?: { destroyed: boolean } }).stream?.destroyed === true;
}
