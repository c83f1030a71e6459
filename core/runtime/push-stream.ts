/**
 * Response bodies pushed by their producer, which the HTTPS listener writes straight to the connection's socket as
 * HTTP/1.1 chunks. Under Bun, each ServerResponse.write on a socket handed from node:tls to node:http, reached
 * through the fetch-Response adapter, costs about 20 µs of the event loop (bench/watch-fanout.ts: a trivial server
 * fanning a pre-serialized frame out to 1,000 watches spends 31.6 µs per delivery through node:http, 9.8 µs on
 * the raw node:tls sockets); a watch fanned out to many clients pays that on every event. Anywhere else (the
 * in-process server, Deno, a filter that wraps the body) the same producer feeds an ordinary ReadableStream.
 */
import { Buffer } from "node:buffer";
import type { ServerResponse } from "node:http";
import { clientEndedBeforeAnswer, responseHeaders } from "./fetch-adapter.ts";

export interface PushSink {
  /** Queues a chunk; false when the client's buffer is full: write more only after `onDrain` calls back. */
  write(chunk: Uint8Array): boolean;
  onDrain(callback: () => void): void;
  /** Ends the body. */
  end(): void;
}

export interface PushSource {
  /** Called once, when the body is wanted. */
  start(sink: PushSink): void;
  /** The client went away before the source ended the body. */
  cancel(): void;
}

const pushSources = new WeakMap<ReadableStream<Uint8Array>, PushSource>();

/** A body fed by `source`, which the listener may take over and write to the socket directly. */
export function pushStream(source: PushSource): ReadableStream<Uint8Array> {
  let onDrain: (() => void) | undefined;
  let started = false;
  // A high-water mark of 0 pulls only for a reader, so nothing starts before the listener could take the source.
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (started) {
        const resume = onDrain;
        onDrain = undefined;
        resume?.();
        return;
      }
      started = true;
      pushSources.delete(stream);
      source.start({
        write: (chunk) => {
          controller.enqueue(chunk);
          return (controller.desiredSize ?? 0) > 0;
        },
        onDrain: (callback) => (onDrain = callback),
        end: () => controller.close(),
      });
    },
    cancel: () => source.cancel(),
  }, { highWaterMark: 0 });
  pushSources.set(stream, source);
  return stream;
}

/**
 * Writes `response` to `outgoing` itself when its body is a push stream nobody has read: the head through
 * node:http (which also ends the chunked body and keeps the connection alive afterwards), each chunk straight
 * to the socket. Answers whether it did (not for HTTP/1.0 requests).
 */
export function respondDirectly(response: Response, outgoing: ServerResponse): boolean {
  const body = response.body;
  const source = body && pushSources.get(body);
  const socket = outgoing.socket;
  // Chunked bodies are HTTP/1.1's; an HTTP/1.0 client gets its body from node:http, which ends it by closing.
  if (!source || body.locked || !socket || outgoing.headersSent || outgoing.req?.httpVersion !== "1.1") return false;
  pushSources.delete(body);
  // The connection closed before the handler answered (its request waited for its wave, or the handler for
  // something): its 'close' came and went, so nothing would ever cancel the source. Go's handler would have
  // returned on the cancelled context.
  if (outgoing.destroyed || socket.destroyed) {
    source.cancel();
    return true;
  }
  const head = responseHeaders(response.headers, false);
  head["transfer-encoding"] = "chunked";
  outgoing.writeHead(response.status, head);
  outgoing.flushHeaders();
  let ended = false;
  outgoing.once("close", () => {
    if (!ended) source.cancel();
  });
  const end = () => {
    if (ended) return;
    ended = true;
    outgoing.end();
  };
  // The client ended its side: Go cancels the request's context, the watch's WatchServer.HandleHTTP returns on it
  // (`case <-done`) and its chunked body is ended. It may have done so before the handler answered (its request
  // waited for its wave, or the handler for something): then the body ends at once.
  const clientEnded = () => {
    if (ended) return;
    source.cancel();
    end();
  };
  if (clientEndedBeforeAnswer(outgoing)) {
    clientEnded();
    return true;
  }
  outgoing.once("client-end", clientEnded);
  source.start({
    write: (chunk) => !ended && socket.write(httpChunk(chunk)),
    onDrain: (callback) => socket.once("drain", callback),
    end,
  });
  return true;
}

/** Framed chunks, kept per chunk object: a frame shared by many responses is framed once. */
const framed = new WeakMap<Uint8Array, Buffer>();

/** One HTTP/1.1 chunk as a Buffer (node:net would otherwise copy a Uint8Array into one on every write). */
function httpChunk(chunk: Uint8Array): Buffer {
  let bytes = framed.get(chunk);
  if (bytes) return bytes;
  const size = `${chunk.byteLength.toString(16)}\r\n`;
  bytes = Buffer.allocUnsafe(size.length + chunk.byteLength + 2);
  bytes.write(size, 0, "latin1");
  bytes.set(chunk, size.length);
  bytes.write("\r\n", size.length + chunk.byteLength, "latin1");
  framed.set(chunk, bytes);
  return bytes;
}
