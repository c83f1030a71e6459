/**
 * The HTTPS listener. `Bun.serve` and `Deno.serve` cannot show the handler the client certificate, so TLS is
 * terminated by node's servers (see secureHttpServer); each request becomes a fetch `Request` (fetch-adapter.ts)
 * handed over with what its connection knows (the peer certificate, read and verified once per connection).
 */
import { Buffer } from "node:buffer";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2Server, Http2ServerRequest } from "node:http2";
import type { Server as HttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import {
  createServer as createTlsServer,
  type DetailedPeerCertificate,
  type Server as TlsServer,
  type TlsOptions,
  type TLSSocket,
} from "node:tls";
import { type ChainVerifier, chainVerifier } from "./certificate-chain.ts";
import { type ConnectionTimeouts, ConnectionTracker, KUBE_CONNECTION_TIMEOUTS } from "./connections.ts";
import {
  asksGlobalOptions,
  BadRequestTarget,
  hasCompleteBody,
  type NodeRequest,
  type NodeResponse,
  toRequest,
  writeResponse,
} from "./fetch-adapter.ts";
import { maxConnectionsFor, openFileLimit } from "./file-limit.ts";
import { respondDirectly } from "./push-stream.ts";
import { settleUnreadBody } from "./_unread-body.ts";
import { Http1Connection } from "./_http1-connection.ts";
import { InTurn } from "./_in-turn.ts";
import { Wave } from "./_wave.ts";
import { http10KeepAliveOf } from "./_http10-keep-alive.ts";
import { logger } from "../log/mod.ts";
import { nodeHttp2, nodeHttps } from "./lazy-builtins.ts";

const log = logger("listener");

/** secure_serving.go's MaxHeaderBytes (1 MiB); Go's server reads 4096 bytes more before answering 431 (initialReadLimitSize). */
const MAX_HEADER_BYTES = (1 << 20) + 4096;
/** Under Deno, node:https is not Bun's node:http fallback; push bodies go through the adapter there. */
const WRITES_PUSH_BODIES = !("Deno" in globalThis);
/** Under Bun, HTTP/1.x is served by kubun's own layer (_http1-connection.ts); under Deno by node:https. */
const OWN_HTTP1 = !("Deno" in globalThis);
/** How often the "connection limit reached" line may be logged. */
const CAP_LOG_INTERVAL_MS = 10_000;

export interface PeerCertificate {
  commonName: string;
  organizations: string[];
  /** True when the certificate chains to the configured client CA. */
  verified: boolean;
  /** PEM of the certificate and the intermediates the client sent, leaf first, for authenticators trusting other CAs. */
  chain: string[];
}

export interface ConnectionInfo {
  peerCertificate?: PeerCertificate;
  /** The request-target as sent, before the fetch Request's URL parsing removed "." and ".." segments. */
  requestTarget?: string;
  /** The client's IP address (audit events' sourceIPs). */
  remoteAddress?: string;
  /**
   * Calls back once the response is written out or its connection closed (when kube's handler would have returned).
   * A method: called on the ConnectionInfo.
   */
  onResponseDone?(callback: () => void): void;
}

/**
 * What one request is told of its connection: the connection's facts, the request-target and its answer's end, in one
 * object per request (a spread copy and a closure for the answer's end cost a scope and three cells more).
 */
class RequestConnection implements ConnectionInfo {
  readonly peerCertificate: PeerCertificate | undefined;
  readonly remoteAddress: string | undefined;
  readonly requestTarget: string | undefined;
  readonly #outgoing: NodeResponse;

  constructor(connection: ConnectionInfo, requestTarget: string | undefined, outgoing: NodeResponse) {
    this.peerCertificate = connection.peerCertificate;
    this.remoteAddress = connection.remoteAddress;
    this.requestTarget = requestTarget;
    this.#outgoing = outgoing;
  }

  onResponseDone(callback: () => void): void {
    const outgoing = this.#outgoing;
    if (outgoing.destroyed || outgoing.writableFinished) callback();
    // A response closes once: `on` spares the wrapper `once` makes.
    else outgoing.on("close", callback);
  }
}

export type ConnectionHandler = (request: Request, conn: ConnectionInfo) => Response | Promise<Response>;

export interface HttpsOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  key: string;
  cert: string;
  /** PEM bundle of CAs that client certificates are verified against. */
  clientCA: string;
  /** PEM bundle of the authenticating proxy's CA (--requestheader-client-ca-file), also accepted in the handshake. */
  requestHeaderCA?: string;
  /** How long close() lets running requests finish before cutting their connections; default 5s. */
  shutdownGraceMs?: number;
  /** Header, body-stall and idle timeouts; default kube's (32s, 90s). */
  timeouts?: ConnectionTimeouts;
  /** Open connections beyond which new ones are refused; default what the open-file limit leaves room for. */
  maxConnections?: number;
}

export interface HttpsListener {
  port: number;
  close(): Promise<void>;
}

export async function listenHttps(handler: ConnectionHandler, options: HttpsOptions): Promise<HttpsListener> {
  const fromClientCA = chainVerifier(options.clientCA);
  const timeouts = options.timeouts ?? KUBE_CONNECTION_TIMEOUTS;
  const connections = new ConnectionTracker(timeouts);
  const wave: HandlerWave = new Wave((request, incoming, outgoing, info) => callHandler(handler, request, incoming, outgoing, info));
  // A request waiting its turn is not tracked yet: its connection keeps the running request's deadlines.
  const serveNow = (incoming: NodeRequest, outgoing: NodeResponse) => {
    const connection = connectionOf(incoming);
    if (connection) connections.trackRequest(connection.socket, incoming, outgoing);
    answer(wave, incoming, outgoing, connection && connectionInfo(connection, fromClientCA));
  };
  const serve = (incoming: NodeRequest, outgoing: NodeResponse) => {
    const connection = connectionOf(incoming);
    // HTTP/2 streams run side by side; an HTTP/1.1 connection's requests take turns.
    if (!connection || incoming.httpVersionMajor === 2) serveNow(incoming, outgoing);
    else (connection.inTurn ??= new InTurn(serveNow)).take(incoming, outgoing);
  };
  // An HTTP/1.x connection's requests take turns as its own reader reads them.
  const serveHttp1 = (socket: TLSSocket) => new Http1Connection(socket, serveNow, MAX_HEADER_BYTES);
  const { tlsServer, servers } = secureHttpServer(serveHttp1, (server) => {
    // Advertised in the Keep-Alive header; ConnectionTracker enforces it.
    if ("keepAliveTimeout" in server) server.keepAliveTimeout = timeouts.idleTimeoutMs;
    server.on("request", serve);
  }, {
    handshakeTimeout: timeouts.readHeaderTimeoutMs,
    key: options.key,
    cert: options.cert,
    ca: options.requestHeaderCA ? `${options.clientCA}\n${options.requestHeaderCA}` : options.clientCA,
    requestCert: true,
    // Requests without a verified certificate still reach authentication (tokens, anonymous).
    rejectUnauthorized: false,
  });
  tlsServer.maxConnections = options.maxConnections ?? maxConnectionsFor(openFileLimit());
  let capLoggedAt = -Infinity;
  tlsServer.on("drop", () => {
    if (Date.now() - capLoggedAt < CAP_LOG_INTERVAL_MS) return;
    capLoggedAt = Date.now();
    log.warning(`connection limit reached (${tlsServer.maxConnections} open): refusing new connections until some close`);
  });
  tlsServer.on("secureConnection", (socket: TLSSocket) => {
    connections.add(socket);
    (socket as ConnectedSocket)[CONNECTION] = { socket };
    socket.on("error", () => socket.destroy());
  });
  // A failed handshake (garbage bytes, unknown CA on the client side, a handshake timeout) concerns only that socket.
  tlsServer.on("tlsClientError", (_error, socket) => socket.destroy());
  if ("Deno" in globalThis) {
    servers[0]!.on("clientError", (error: Error & { code?: string }, socket: Socket) => answerUnreadableRequest(error, socket));
  }

  await new Promise<void>((resolve, reject) => {
    tlsServer.once("error", reject);
    tlsServer.listen(options.port, options.host, () => {
      tlsServer.off("error", reject);
      resolve();
    });
  });
  return {
    port: (tlsServer.address() as AddressInfo).port,
    close: async () => {
      const closed = new Promise<void>((resolve) => tlsServer.close(() => resolve()));
      await connections.drain(options.shutdownGraceMs ?? 5000);
      for (const server of servers) if (server !== tlsServer) server.close();
      await closed;
    },
  };
}

/**
 * Serves one request. An answer the handler gives at once is written right after its wave's handlers, without a
 * promise (respondAfterWave); one that waits, when it comes.
 */
function answer(wave: HandlerWave, incoming: NodeRequest, outgoing: NodeResponse, info: ConnectionInfo = {}): void {
  const http2 = incoming.httpVersionMajor === 2;
  let request: Request;
  try {
    request = toRequest(incoming, outgoing);
  } catch (error) {
    if (!(error instanceof BadRequestTarget)) return failedAnswer(outgoing, error);
    // Go's conn.serve answers a request it cannot route as plain text and closes the connection.
    const text = `400 Bad Request: ${error.message}`;
    outgoing.writeHead(400, { "content-type": "text/plain; charset=utf-8", ...(http2 ? {} : { connection: "close" }) });
    outgoing.end(text);
    return;
  }
  // The request is made at once: its body's reader must be there when the body's first bytes are read.
  wave.add(request, incoming, outgoing, info);
}

type HandlerWave = Wave<Request, NodeRequest, NodeResponse, ConnectionInfo>;

/** The handler's turn for a request, in the wave of requests read in one poll (_wave.ts). */
function callHandler(
  handler: ConnectionHandler,
  request: Request,
  incoming: NodeRequest,
  outgoing: NodeResponse,
  info: ConnectionInfo,
): void {
  let answered: Response | Promise<Response>;
  const answering = asksGlobalOptions(incoming) ? answerGlobalOptions : handler;
  try {
    answered = answering(request, new RequestConnection(info, incoming.url, outgoing));
  } catch (error) {
    return failedAnswer(outgoing, error);
  }
  if (answered instanceof Promise) respondLater(answered, request, incoming, outgoing);
  else respondAfterWave(answered, request, incoming, outgoing);
}

/**
 * An answer the handler gave at once is written once the wave's handlers have run (the microtasks after the wave's
 * immediate), as an answer that waited is: written between the wave's handlers, GETs cost 6-11 µs more main-thread
 * CPU each in the compiled binary (client certificate 29-30 → 35-40 µs, ServiceAccount token 33-34 → 45 µs, 32
 * kept-alive connections; bench/profiles/request-path.md, fourteenth session).
 */
function respondAfterWave(answered: Response, request: Request, incoming: NodeRequest, outgoing: NodeResponse): void {
  queueMicrotask(() => respond(answered, request, incoming, outgoing));
}

// The continuations live in functions of their own: a function holding a closure over its parameters makes a scope
// object on every call, even one that never makes the closure.
function respondLater(answered: Promise<Response>, request: Request, incoming: NodeRequest, outgoing: NodeResponse): void {
  answered.then((response) => respond(response, request, incoming, outgoing), (error: unknown) => failedAnswer(outgoing, error));
}

/**
 * Go's globalOptionsHandler, which serverHandler.ServeHTTP runs for "OPTIONS *" in place of the server's handler:
 * 200 with an empty body (a body sent along is left to settleUnreadBody).
 */
const answerGlobalOptions: ConnectionHandler = () => new Response(null, { headers: { "content-length": "0" } });

/**
 * Settles a body the handler left unread (Go's server does so before the answer's head), then writes the answer;
 * a request whose body all came, or that had none, is answered at once.
 */
function respond(response: Response, request: Request, incoming: NodeRequest, outgoing: NodeResponse): void {
  let unread: Promise<boolean> | undefined;
  try {
    unread = settleUnreadBody(incoming, request);
  } catch (error) {
    return failedAnswer(outgoing, error);
  }
  if (unread === undefined) return write(response, request, incoming, outgoing, false);
  writeLater(unread, response, request, incoming, outgoing);
}

function writeLater(unread: Promise<boolean>, response: Response, request: Request, incoming: NodeRequest, outgoing: NodeResponse): void {
  unread.then((closes) => write(response, request, incoming, outgoing, closes), (error: unknown) => failedAnswer(outgoing, error));
}

/** `closes`: the answer ends the HTTP/1.1 connection, or resets the HTTP/2 stream once written. */
function write(response: Response, request: Request, incoming: NodeRequest, outgoing: NodeResponse, closes: boolean): void {
  const http2 = incoming.httpVersionMajor === 2;
  const reset = closes && http2 ? streamReset(incoming as Http2ServerRequest) : undefined;
  try {
    // A push body (a watch) over HTTP/1.1 is written to the socket directly, past node:http's writer.
    const pushes = !http2 && !closes && WRITES_PUSH_BODIES && request.method !== "HEAD" && !hasCompleteBody(response);
    if (pushes && respondDirectly(response, outgoing as ServerResponse)) return;
    const connection = closes ? "close" : http2 ? undefined : http10KeepAliveOf(incoming as IncomingMessage);
    // Only node:http's writer (Deno's) needs a whole answer's writes gathered: kubun's own writes it in one.
    const corked = http2 || OWN_HTTP1 ? undefined : incoming.socket;
    const written = writeResponse(response, outgoing, http2, corked, connection);
    if (written) writtenLater(written, outgoing, reset);
    else reset?.();
  } catch (error) {
    failedAnswer(outgoing, error);
  }
}

function streamReset(incoming: Http2ServerRequest): () => void {
  return () => incoming.stream.close(nodeHttp2().constants.NGHTTP2_NO_ERROR);
}

function writtenLater(written: Promise<void>, outgoing: NodeResponse, reset: (() => void) | undefined): void {
  written.then(reset).catch((error: unknown) => failedAnswer(outgoing, error));
}

/** The handler answers its own failures: this is a body stream that broke after its head was sent, or a bug. */
function failedAnswer(outgoing: NodeResponse, error: unknown): void {
  log.error("response failed", error);
  outgoing.destroy();
}

/** ALPN protocols offered: HTTP/2 first as Go's net/http (http2.ConfigureServer) offers them, then HTTP/1.1. */
const ALPN_H2_FIRST = ["h2", "http/1.1"];

/**
 * HTTP/2 settings of kube's secure server (secure_serving.go, Serve): 250 concurrent streams (its default when
 * --http2-max-streams-per-connection is 0) and 256 KiB per-stream upload buffer and frame size
 * (resourceBody99Percentile).
 */
const HTTP2_SETTINGS = {
  maxConcurrentStreams: 250,
  initialWindowSize: 256 * 1024,
  maxFrameSize: 256 * 1024,
  maxHeaderListSize: MAX_HEADER_BYTES,
};

/**
 * `strictFieldWhitespaceValidation: false`: a field value with leading or trailing whitespace (`Accept-Encoding:
 * gzip `) reaches the handler. node:http2 drops such a field by default (RFC 9113's rule); Go's http2 Framer
 * (readMetaFrame) rejects only what httpguts.ValidHeaderFieldValue refuses, and spaces and tabs are valid, so kube's
 * handlers see the field, as they do over HTTP/1.1, where textproto trims the value.
 */
const HTTP2_SERVER_OPTIONS = { settings: HTTP2_SETTINGS, maxSessionMemory: 64, strictFieldWhitespaceValidation: false };

/**
 * Under Bun a node:https server does not show requests the client certificate, so a node:tls server serves each
 * secure socket: HTTP/1.x with kubun's own reader (`serveHttp1`, _http1-connection.ts), h2 (chosen by ALPN)
 * through a node:http2 server, made at the first h2 connection (lazy-builtins.ts: an idle server or one whose
 * clients speak HTTP/1.1 never loads node:http2). Under Deno that hand-off closes kept-alive connections after the
 * first response, and node:https shows the certificate, so one node:https server does both, over HTTP/1.1 only:
 * Deno's node:http2 server reports a client certificate that chains to the CA as not authorized (Deno 2.9.6).
 * `servers`: the request servers made so far, each handed to `prepare` when made.
 */
function secureHttpServer(
  serveHttp1: (socket: TLSSocket) => void,
  prepare: (server: HttpsServer | Http2Server) => void,
  tlsOptions: TlsOptions,
): { tlsServer: TlsServer; servers: (HttpsServer | Http2Server)[] } {
  if ("Deno" in globalThis) {
    const server = nodeHttps().createServer({ ...tlsOptions, ALPNProtocols: ["http/1.1"], maxHeaderSize: MAX_HEADER_BYTES });
    prepare(server);
    return { tlsServer: server, servers: [server] };
  }
  const tlsServer = createTlsServer({ ...tlsOptions, ALPNProtocols: ALPN_H2_FIRST });
  const servers: Http2Server[] = [];
  const http2Server = () => {
    if (servers.length === 0) {
      servers.push(nodeHttp2().createServer(HTTP2_SERVER_OPTIONS));
      prepare(servers[0]!);
    }
    return servers[0]!;
  };
  tlsServer.on("secureConnection", (socket: TLSSocket) => {
    if (socket.alpnProtocol === "h2") http2Server().emit("connection", socket);
    else serveHttp1(socket);
  });
  return { tlsServer, servers };
}

/**
 * Go's net/http answers (conn.serve) to a request it cannot read: a head over MaxHeaderBytes gets 431, any
 * other malformed head 400, both as plain text closing the connection; a connection that broke gets no answer.
 * Deno's node:http reports the error again for every further chunk of the request: the answer already sent is
 * left to finish (destroying the socket would drop it before TLS has flushed it).
 */
function answerUnreadableRequest(error: Error & { code?: string }, socket: Socket): void {
  // Bytes after a request that asked to close: Go never reads them (closeAfterReply), and that request's answer,
  // still to come, ends the connection.
  if (socket.writableEnded || error.code === "HPE_CLOSED_CONNECTION") return;
  if (!error.code?.startsWith("HPE_") || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === "HPE_HEADER_OVERFLOW" ? "431 Request Header Fields Too Large" : "400 Bad Request";
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${status}`);
}

/** Where a connection keeps what is known of it; HTTP/2 requests reach their TLS socket through a proxy of it. */
const CONNECTION = Symbol("connection");

interface Connection {
  socket: TLSSocket;
  /** The peer certificate cannot change during a TLS connection, so it is read and verified once. */
  info?: ConnectionInfo;
  /** An HTTP/1.1 connection's requests, served one at a time. */
  inTurn?: InTurn;
}

type ConnectedSocket = TLSSocket & { [CONNECTION]?: Connection };

function connectionOf(incoming: NodeRequest): Connection | undefined {
  return (incoming.socket as ConnectedSocket | undefined)?.[CONNECTION];
}

function connectionInfo(connection: Connection, fromClientCA: ChainVerifier): ConnectionInfo {
  connection.info ??= { ...readConnectionInfo(connection.socket, fromClientCA), remoteAddress: connection.socket.remoteAddress };
  return connection.info;
}

/** What a TLS connection's peer certificate tells, read and verified once per connection. */
export function readConnectionInfo(socket: TLSSocket, fromClientCA: ChainVerifier): ConnectionInfo {
  const certificate = socket.getPeerCertificate?.(true);
  if (!certificate || !certificate.subject) return {};
  const chain = peerChain(certificate);
  return {
    peerCertificate: {
      commonName: firstValue(certificate.subject.CN) ?? "",
      organizations: allValues(certificate.subject.O),
      // The handshake trusts the proxy's CA too; only the client CA's certificates name users.
      verified: socket.authorized && fromClientCA(chain),
      chain,
    },
  };
}

function peerChain(leaf: DetailedPeerCertificate): string[] {
  const chain: string[] = [];
  const seen = new Set<string>();
  for (let cert: DetailedPeerCertificate | undefined = leaf; cert?.raw && !seen.has(cert.fingerprint256); cert = cert.issuerCertificate) {
    seen.add(cert.fingerprint256);
    // Deno hands the leaf's DER as a plain Uint8Array, whose toString is not base64.
    const lines = Buffer.from(cert.raw).toString("base64").match(/.{1,64}/g) ?? [];
    chain.push(`-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`);
  }
  return chain;
}

// Node gives a single RDN value as a string and repeated ones as an array.
function allValues(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return allValues(value)[0];
}
