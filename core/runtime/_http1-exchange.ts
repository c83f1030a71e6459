/**
 * One HTTP/1.x request and its answer on a connection kubun reads itself (_http1-connection.ts). They offer the
 * members of node:http's IncomingMessage and ServerResponse that the listener's modules use (fetch-adapter.ts,
 * _unread-body.ts, connections.ts, push-stream.ts), so those serve either. The answer's head is written as Go's
 * chunkWriter.writeHeader writes it: the handler's fields byte for byte, a Date, a Content-Length when the length
 * is known or chunks on HTTP/1.1 when not, "Connection: close" on HTTP/1.1 when the connection ends with it, and
 * no Keep-Alive field.
 */
import { Buffer } from "node:buffer";
import { EventEmitter } from "node:events";
import type { OutgoingHttpHeaders } from "node:http";
import type { TLSSocket } from "node:tls";
import { httpDate } from "./http-date.ts";
import type { Http1Head } from "./_http1-head.ts";
import { bodyAllowedForStatus, hasToken } from "./_http10-keep-alive.ts";
import { REASON_PHRASES } from "./_reason-phrases.ts";

/** What a request asks of its connection: to pause or resume the reading of its body. */
export interface BodyFlow {
  pauseBody(): void;
  resumeBody(): void;
}

export class Http1Request extends EventEmitter {
  readonly httpVersionMajor = 1;
  readonly httpVersionMinor: number;
  readonly httpVersion: string;
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly rawHeaders: string[];
  readonly socket: TLSSocket;
  /** The body ended ("end" emitted, or about to be for a request without one). */
  readableEnded = false;
  /** The connection ended before the body did, or the body broke. */
  /** Why the body broke, in Go's words (chunkedReader's error), when it did. */
  bodyError: string | undefined;
  /** The whole body, when it came with the head (a declared length, no Expect): it is never streamed. */
  completeBody: Buffer | undefined;
  destroyed = false;
  readonly #flow: BodyFlow;

  constructor(head: Http1Head, socket: TLSSocket, flow: BodyFlow) {
    super();
    this.httpVersionMinor = head.versionMinor;
    this.httpVersion = head.versionMinor === 0 ? "1.0" : "1.1";
    this.method = head.method;
    this.url = head.target;
    this.headers = head.headers;
    this.rawHeaders = head.rawHeaders;
    this.socket = socket;
    this.#flow = flow;
  }

  pause(): this {
    this.#flow.pauseBody();
    return this;
  }

  resume(): this {
    this.#flow.resumeBody();
    return this;
  }
}

/** What the fetch Request made of a request is told of its answer (fetch-adapter.ts). */
export interface ServedRequest {
  clientWentAway(): void;
  answerClosed(outgoing: Http1Response): void;
}

/** How the answer's body is delimited. */
type Framing = "length" | "chunked" | "none" | "until-close";

const CHUNK_END = Buffer.from("0\r\n\r\n", "latin1");
const CONTINUE = Buffer.from("HTTP/1.1 100 Continue\r\n\r\n", "latin1");

export class Http1Response extends EventEmitter {
  readonly req: Http1Request;
  readonly socket: TLSSocket;
  headersSent = false;
  destroyed = false;
  writableFinished = false;
  /** The connection ends after this answer. */
  closes: boolean;
  #status = 200;
  #fields: OutgoingHttpHeaders | undefined;
  #framing: Framing = "none";
  #ended = false;
  #closed = false;
  #clientEnded = false;
  /**
   * The fetch Request made of this request (fetch-adapter.ts), told when the client ends its side and when the answer
   * closes: told directly, a "close" listener and its closure per request are spared.
   */
  servedRequest: ServedRequest | undefined = undefined;
  readonly #answerClosed: () => void;

  /**
   * `closes`: the request asked to end the connection with its answer (Go's Request.Close). `answerClosed`: the
   * connection's turn when the answer closes, before the request's and the "close" listeners'.
   */
  constructor(req: Http1Request, socket: TLSSocket, closes: boolean, answerClosed: () => void) {
    super();
    this.req = req;
    this.socket = socket;
    this.closes = closes;
    this.#answerClosed = answerClosed;
  }

  writeHead(status: number, headers: OutgoingHttpHeaders): this {
    this.#status = status;
    this.#fields = headers;
    return this;
  }

  /** Writes the head now (a watch owes its client the status before its first event). */
  flushHeaders(): void {
    if (!this.headersSent) this.socket.write(this.#head(0), "latin1");
  }

  write(chunk: Uint8Array): boolean {
    if (this.#ended || this.destroyed) return false;
    const head = this.headersSent ? undefined : this.#head(0);
    const body = this.#framed(chunk);
    if (head === undefined) return body === undefined ? true : this.socket.write(body);
    return this.socket.write(body === undefined ? Buffer.from(head, "latin1") : withHead(head, body));
  }

  /**
   * Ends the answer, its head and last bytes in one write; "close" follows once they are handed to the socket. A text
   * body given with the head is encoded straight after it in the one buffer (no buffer of its own, no copy).
   */
  end(chunk?: Uint8Array | string): this {
    if (this.#ended || this.destroyed) return this;
    this.#ended = true;
    const text = typeof chunk === "string" ? chunk : undefined;
    const size = typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk?.byteLength ?? 0;
    const head = this.headersSent ? undefined : this.#head(size);
    if (head !== undefined && text !== undefined && this.#framing === "length") {
      const out = Buffer.allocUnsafe(head.length + size);
      out.write(head, 0, "latin1");
      out.write(text, head.length, "utf8");
      this.socket.write(out, this.#finished);
      return this;
    }
    const bytes = text === undefined ? chunk as Uint8Array | undefined : Buffer.from(text);
    const body = bytes && bytes.byteLength > 0 ? this.#framed(bytes) : undefined;
    const last = this.#framing === "chunked" ? (body ? Buffer.concat([body, CHUNK_END]) : CHUNK_END) : body;
    if (head === undefined && last === undefined) this.#finished();
    else if (head === undefined) this.socket.write(last!, this.#finished);
    else this.socket.write(last === undefined ? Buffer.from(head, "latin1") : withHead(head, last), this.#finished);
    return this;
  }

  writeContinue(): void {
    this.socket.write(CONTINUE);
  }

  destroy(): this {
    if (this.#closed) return this;
    this.destroyed = true;
    this.socket.destroy();
    this.#close();
    return this;
  }

  /** The connection closed: an answer not yet written out ends here. */
  connectionClosed(): void {
    if (!this.writableFinished) this.destroyed = true;
    this.#close();
  }

  /**
   * The client ended its side before this answer was out: as Go's connReader.handleReadError cancels the request's
   * context, the request's signal aborts and "client-end" tells a streamed body's writer to end it; what the handler
   * answers is still written.
   */
  /** The client ended its side while this answer was owed (push-stream.ts ends a streamed body at once then). */
  get clientHasEnded(): boolean {
    return this.#clientEnded;
  }

  clientEnded(): void {
    if (this.#clientEnded) return;
    this.#clientEnded = true;
    this.servedRequest?.clientWentAway();
    this.emit("client-end");
  }

  /** The connection's reading broke (a malformed chunk): it ends with this answer. */
  mustClose(): void {
    this.closes = true;
  }

  /** The last write's callback: its error means the bytes never left (the socket broke first). */
  readonly #finished = (error?: Error | null): void => {
    if (error) this.destroyed = true;
    else this.writableFinished = true;
    this.#close();
  };

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#answerClosed();
    this.servedRequest?.answerClosed(this);
    this.emit("close");
  }

  /** A body part as the framing wants it; undefined when nothing goes out (HEAD, a status without a body). */
  #framed(chunk: Uint8Array): Uint8Array | undefined {
    if (this.#framing === "none" || chunk.byteLength === 0) return undefined;
    if (this.#framing !== "chunked") return chunk;
    const size = `${chunk.byteLength.toString(16)}\r\n`;
    const framed = Buffer.allocUnsafe(size.length + chunk.byteLength + 2);
    framed.write(size, 0, "latin1");
    framed.set(chunk, size.length);
    framed.write("\r\n", size.length + chunk.byteLength, "latin1");
    return framed;
  }

  /**
   * The head's bytes, deciding the framing. `wholeBytes` is the entire body's size when the answer ends with this
   * write: its length is then known (Go gives a finished handler's answer a Content-Length).
   */
  #head(wholeBytes: number): string {
    this.headersSent = true;
    const fields = this.#fields ?? {};
    const status = this.#status;
    const http11 = this.req.httpVersionMinor !== 0;
    const bodyless = this.req.method === "HEAD" || !bodyAllowedForStatus(status);
    let length = fields["content-length"];
    const coding = fields["transfer-encoding"];
    if (length === undefined && coding === undefined && this.#ended && !bodyless) {
      length = fields["content-length"] = wholeBytes;
    }
    if (bodyless) this.#framing = "none";
    else if (length !== undefined) this.#framing = "length";
    else if (http11) {
      this.#framing = "chunked";
      if (coding === undefined) fields["transfer-encoding"] = "chunked";
    } else this.#framing = "until-close";
    const connection = fields.connection;
    if (hasToken(connection, "close") || this.#framing === "until-close") this.closes = true;
    // HTTP/1.0 keeps its connection only when the answer says so (keepHttp10Alive gives known lengths that word).
    if (!http11 && !hasToken(connection, "keep-alive")) this.closes = true;
    if (this.closes && http11 && connection === undefined) fields.connection = "close";
    let head = `HTTP/1.${http11 ? 1 : 0} ${status} ${REASON_PHRASES[status] ?? `status code ${status}`}\r\n`;
    for (const name in fields) {
      const value = fields[name];
      if (value === undefined) continue;
      if (Array.isArray(value)) { for (const one of value) head += `${name}: ${onOneLine(String(one))}\r\n`; }
      else head += `${name}: ${onOneLine(String(value))}\r\n`;
    }
    if (fields.date === undefined && fields.Date === undefined) head += `Date: ${httpDate()}\r\n`;
    return `${head}\r\n`;
  }
}

/**
 * The head's text and `bytes` in one buffer. Header values hold one character per byte (a Warning's UTF-8): latin1
 * writes those bytes as they are.
 */
function withHead(head: string, bytes: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(head.length + bytes.byteLength);
  out.write(head, 0, "latin1");
  out.set(bytes, head.length);
  return out;
}

/** Go's Header.Write (headerNewlineToSpace): a CR or LF in a value goes out as a space, so no value can end the head. */
function onOneLine(value: string): string {
  return value.includes("\r") || value.includes("\n") ? value.replace(/[\r\n]/g, " ") : value;
}
