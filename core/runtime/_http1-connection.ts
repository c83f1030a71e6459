/**
 * kubun's own HTTP/1.x server side of one TLS connection, in place of node:http (issue 16: node:http's objects and
 * Writable path cost 15-25 µs per request, bench/profiles/request-path.md). As Go's conn.serve: one request at a
 * time, in order; the next head is read only after the answer before it is written out ((*conn).readRequest after
 * finishRequest), and nothing after an answer that ends the connection. The body is handed on as it comes, the
 * socket paused while its reader is behind; a head Go would refuse gets Go's plain-text answer and the end.
 */
import { Buffer } from "node:buffer";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { BodyDecoder, MalformedChunk } from "./_http1-body.ts";
import { type BodyFlow, Http1Request, Http1Response } from "./_http1-exchange.ts";
import { BAD_REQUEST, HEAD_TOO_LARGE, headEnd, parseHead, UnreadableHead } from "./_http1-head.ts";
import { hasToken } from "./_http10-keep-alive.ts";
import { awaitContinue } from "./_unread-body.ts";
import { httpDate } from "./http-date.ts";
import { logger } from "../log/mod.ts";

const log = logger("listener");
/** Go's rstAvoidanceDelay (net/http server.go): how long a closing connection waits after its write side closed. */
const RST_AVOIDANCE_DELAY_MS = 500;

/**
 * Serves one request. The request and answer offer what the listener's modules read of node:http's pair
 * (_http1-exchange.ts), and are handed over as those types.
 */
export type Http1Serve = (incoming: IncomingMessage, outgoing: ServerResponse) => void;

type State = "head" | "body" | "answering" | "closed";

export class Http1Connection implements BodyFlow {
  readonly #socket: TLSSocket;
  readonly #serve: Http1Serve;
  readonly #maxHeadBytes: number;
  #state: State = "head";
  /** Bytes read and not yet taken. */
  #pending: Buffer | undefined;
  /** How far the search for the head's end got in #pending. */
  #searched = 0;
  /** The last request was a POST: up to 4 CR or LF bytes before the next head are skipped (conn.readRequest). */
  #afterPost = false;
  #request: Http1Request | undefined;
  #response: Http1Response | undefined;
  #body: BodyDecoder | undefined;
  /** The current answer is written out (its body may still be coming, to be dropped). */
  #answered = false;
  #bodyPaused = false;
  #processing = false;
  #again = false;
  /** The client ended its side (shutdown(SHUT_WR), or its whole close): Go's connReader read EOF. */
  #readEnded = false;

  /** `maxHeadBytes`: past this many bytes without a head's end, the answer is Go's 431. */
  constructor(socket: TLSSocket, serve: Http1Serve, maxHeadBytes: number) {
    this.#socket = socket;
    this.#serve = serve;
    this.#maxHeadBytes = maxHeadBytes;
    // Go's TCP connections, and node:http's, send small writes (a watch's events) at once.
    socket.setNoDelay(true);
    // The client's end of its side is no end of the answer it is owed (Go writes it, then closes).
    socket.allowHalfOpen = true;
    socket.on("data", this.#read);
    socket.on("end", this.#inputEnded);
    socket.on("drain", () => this.#response?.emit("drain"));
    socket.on("close", this.#closed);
  }

  pauseBody(): void {
    this.#bodyPaused = true;
    this.#socket.pause();
  }

  resumeBody(): void {
    this.#bodyPaused = false;
    this.#socket.resume();
    if (this.#state === "body") this.#process();
  }

  readonly #read = (chunk: Buffer): void => {
    if (this.#state === "closed") return;
    this.#pending = this.#pending === undefined ? chunk : Buffer.concat([this.#pending, chunk]);
    this.#process();
  };

  /** Takes what the pending bytes allow; re-entered (a body reader resuming from its data callback), it runs again after. */
  #process(): void {
    if (this.#processing) {
      this.#again = true;
      return;
    }
    this.#processing = true;
    try {
      do {
        this.#again = false;
        while (this.#step());
      } while (this.#again);
      if (this.#readEnded) this.#afterInputEnded();
    } catch (error) {
      // A bug here concerns this connection only: it ends, the server serves on.
      log.error("reading an HTTP/1.x connection failed", error);
      this.#stopReading();
      this.#socket.destroy();
    } finally {
      this.#processing = false;
    }
  }

  /** One step of reading; false when it must wait for more bytes, a reader or an answer. */
  #step(): boolean {
    const pending = this.#pending;
    if (this.#state === "head") return pending !== undefined && this.#readHead(pending);
    if (this.#state === "body") return pending !== undefined && !this.#bodyPaused && this.#readBody(pending);
    // Answering: like Go, read no further than one head's worth meanwhile, but keep noticing the client leave.
    if (this.#state === "answering" && pending !== undefined && pending.length > this.#maxHeadBytes) this.#socket.pause();
    return false;
  }

  #readHead(pending: Buffer): boolean {
    if (this.#afterPost) {
      // RFC 7230 section 3's tolerance for old clients that end a POST body with a stray CRLF, as Go keeps it.
      const skipped = strayNewlines(pending);
      if (skipped === pending.length && skipped < 4) return false;
      this.#afterPost = false;
      if (skipped > 0) {
        this.#pending = skipped < pending.length ? pending.subarray(skipped) : undefined;
        return this.#pending !== undefined;
      }
    }
    const end = headEnd(pending, Math.max(0, this.#searched - 3));
    if (end === undefined || end.next > this.#maxHeadBytes) {
      this.#searched = pending.length;
      if (pending.length > this.#maxHeadBytes) this.#refuse(HEAD_TOO_LARGE.answer);
      return false;
    }
    let head;
    try {
      head = parseHead(pending.toString("latin1", 0, end.head));
    } catch (error) {
      if (!(error instanceof UnreadableHead)) throw error;
      this.#refuse(error.answer);
      return false;
    }
    this.#searched = 0;
    this.#afterPost = head.method === "POST";
    const request = new Http1Request(head, this.#socket, this);
    const connection = head.headers.connection;
    // Go's shouldClose: HTTP/1.0 closes unless asked to keep alive, HTTP/1.1 when asked to close.
    const closes = head.versionMinor === 0 ? !hasToken(connection, "keep-alive") : hasToken(connection, "close");
    const response = new Http1Response(request, this.#socket, closes, this.#answerClosed);
    const expect = head.headers.expect;
    if (expect !== undefined && !hasToken(expect, "100-continue")) {
      // conn.serve's sendExpectationFailed: 417, and the connection ends.
      this.#refuse(`HTTP/1.1 417 Expectation Failed\r\nConnection: close\r\nDate: ${httpDate()}\r\nContent-Length: 0\r\n\r\n`);
      return false;
    }
    const whole = expect === undefined && this.#tookWholeBody(request, head.body, pending, end.next);
    if (!whole) this.#pending = end.next < pending.length ? pending.subarray(end.next) : undefined;
    // conn.serve wraps the body in an expectContinueReader on HTTP/1.1 when one is announced.
    if (expect !== undefined && head.versionMinor !== 0 && head.body !== 0) awaitContinue(request as unknown as IncomingMessage);
    this.#request = request;
    this.#response = response;
    this.#body = new BodyDecoder(whole ? 0 : head.body);
    this.#answered = false;
    this.#bodyPaused = false;
    const bodyless = this.#body.done;
    this.#state = bodyless ? "answering" : "body";
    request.readableEnded = bodyless;
    this.#serve(request as unknown as IncomingMessage, response as unknown as ServerResponse);
    if (bodyless) request.emit("end");
    return this.#state !== "answering" || this.#answered;
  }

  /**
   * A declared body that came whole with its head (a create's small JSON, most writes) is handed over as bytes
   * (Http1Request.completeBody), without a body stream or "data" events: the stream, its reader and its events cost
   * a create ~3 µs of main-thread CPU (bench/profiles/create-path.md, twelfth session). Go's conn.serve reads such a
   * body as any other; nothing the client sees changes.
   */
  #tookWholeBody(request: Http1Request, body: number | "chunked", pending: Buffer, start: number): boolean {
    if (body === "chunked" || body === 0 || pending.length - start < body) return false;
    const end = start + body;
    // One view each of the body and of what follows it: a Buffer's subarray costs ~0.3 µs under Bun.
    request.completeBody = pending.subarray(start, end);
    this.#pending = pending.length > end ? pending.subarray(end) : undefined;
    return true;
  }

  #readBody(pending: Buffer): boolean {
    const request = this.#request!;
    const body = this.#body!;
    let taken: number;
    try {
      taken = body.take(pending, 0, (part) => request.emit("data", part));
    } catch (error) {
      if (!(error instanceof MalformedChunk)) throw error;
      request.bodyError = error.message;
      this.#brokenBody();
      return false;
    }
    this.#pending = taken < pending.length ? pending.subarray(taken) : undefined;
    if (!body.done) return false;
    request.readableEnded = true;
    this.#state = this.#answered ? "head" : "answering";
    request.emit("end");
    return this.#state === "head";
  }

  /** A body Go's chunkedReader refuses: its reader errors, and its answer ends the connection. */
  #brokenBody(): void {
    this.#stopReading();
    this.#response?.mustClose();
    this.#request!.destroyed = true;
    this.#request!.emit("close");
  }

  readonly #inputEnded = (): void => {
    this.#readEnded = true;
    this.#process();
  };

  /**
   * What the client's end of its side means, as Go's connReader.handleReadError and conn.serve take its EOF: a body
   * cut short errors (its reader's io.ErrUnexpectedEOF); a request being answered has its context cancelled (the
   * request's signal aborts, a streamed answer ends) while its answer is still written; with no request left,
   * the next readRequest meets the EOF: nothing read closes the connection, part of a head is answered 400.
   */
  #afterInputEnded(): void {
    if (this.#state === "answering") this.#response!.clientEnded();
    else if (this.#state === "body" && this.#pending === undefined) {
      if (this.#answered) this.#closeAfterReply();
      else this.#brokenBody();
    } else if (this.#state === "head") {
      const pending = this.#pending;
      const skipped = pending !== undefined && this.#afterPost ? strayNewlines(pending) : 0;
      if (pending === undefined || skipped === pending.length) this.#closeAfterReply();
      else this.#refuse(BAD_REQUEST.answer);
    }
  }

  /** conn.serve's answer to a head it cannot read; the connection ends with it. */
  #refuse(answer: string): void {
    this.#stopReading();
    this.#socket.end(answer, "latin1");
  }

  /** Reads on only to notice the client leave; what comes is dropped. */
  #stopReading(): void {
    this.#state = "closed";
    this.#pending = undefined;
    this.#socket.resume();
  }

  /**
   * Go's closeWriteAndWait: the answer flushed, the write side closed, then rstAvoidanceDelay before the close, reading
   * nothing more meanwhile, so a client still sending a refused body is held back by its own buffers, not drained.
   * A client that ended its side sends nothing more: its connection closes once the answer is out.
   */
  #closeAfterReply(): void {
    this.#state = "closed";
    this.#pending = undefined;
    const socket = this.#socket;
    socket.pause();
    if (socket.destroyed) return;
    if (this.#readEnded) socket.end(() => socket.destroy());
    else socket.end(() => setTimeout(() => socket.destroy(), RST_AVOIDANCE_DELAY_MS).unref());
  }

  readonly #answerClosed = (): void => {
    const response = this.#response!;
    this.#answered = true;
    if (response.closes || response.destroyed) {
      this.#closeAfterReply();
      return;
    }
    // A body still coming is read to its end and dropped: its settling decided the connection may serve on.
    if (this.#state === "answering") this.#state = "head";
    this.#bodyPaused = false;
    this.#socket.resume();
    this.#process();
  };

  readonly #closed = (): void => {
    const request = this.#request;
    this.#state = "closed";
    this.#pending = undefined;
    if (request && !request.readableEnded && !request.destroyed) {
      request.destroyed = true;
      request.emit("close");
    }
    this.#response?.connectionClosed();
  };
}

/** How many CR or LF bytes, at most 4, `bytes` starts with: conn.readRequest's numLeadingCRorLF after a POST. */
function strayNewlines(bytes: Buffer): number {
  let count = 0;
  while (count < 4 && count < bytes.length && (bytes[count] === 13 || bytes[count] === 10)) count++;
  return count;
}
