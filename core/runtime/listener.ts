/**
 * The HTTPS listener. `Bun.serve` and `Deno.serve` cannot show the handler the client certificate, so TLS is
 * terminated by node's servers (see secureHttpServer) whose requests become fetch `Request`s (via
 * @hono/node-server) together with the peer certificate.
 */
import { Buffer } from "node:buffer";
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import {
  createServer as createTlsServer,
  type DetailedPeerCertificate,
  type Server as TlsServer,
  type TlsOptions,
  type TLSSocket,
} from "node:tls";
import { getRequestListener } from "@hono/node-server";
import { type ChainVerifier, chainVerifier } from "./certificate-chain.ts";
import { type ConnectionTimeouts, ConnectionTracker, KUBE_CONNECTION_TIMEOUTS } from "./connections.ts";
import { maxConnectionsFor, openFileLimit } from "./file-limit.ts";
import { respondDirectly } from "./push-stream.ts";
import { logger } from "../log/mod.ts";

const log = logger("listener");

/** secure_serving.go's MaxHeaderBytes (1 MiB); Go's server reads 4096 bytes more before answering 431 (initialReadLimitSize). */
const MAX_HEADER_BYTES = (1 << 20) + 4096;
/** Under Deno, node:https is not Bun's node:http fallback; push bodies go through the adapter there. */
const WRITES_PUSH_BODIES = !("Deno" in globalThis);
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
  /** Calls back once the response is written out or its connection closed (when kube's handler would have returned). */
  onResponseDone?: (callback: () => void) => void;
}

export type ConnectionHandler = (request: Request, conn: ConnectionInfo) => Promise<Response>;

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
  const requestListener = getRequestListener(
    (request, env) => {
      const incoming = ("incoming" in env ? env.incoming : undefined) as IncomingMessage | undefined;
      const outgoing = ("outgoing" in env ? env.outgoing : undefined) as ServerResponse | undefined;
      const answer = handler(request, {
        ...connectionInfo(incoming, fromClientCA),
        requestTarget: incoming?.url,
        onResponseDone: outgoing && ((callback) => {
          if (outgoing.destroyed || outgoing.writableFinished) callback();
          else outgoing.once("close", callback);
        }),
      });
      if (!outgoing || !WRITES_PUSH_BODIES || request.method === "HEAD") return answer;
      // A push body (a watch) is written to the socket here; the adapter then gets an answer that never comes
      // (nothing holds it, so it is collected) and leaves the response alone.
      return answer.then((response) => respondDirectly(response, outgoing) ? new Promise<Response>(() => {}) : response);
    },
    { overrideGlobalObjects: false },
  );
  const fromClientCA = chainVerifier(options.clientCA);
  const timeouts = options.timeouts ?? KUBE_CONNECTION_TIMEOUTS;
  const { tlsServer, httpServer } = secureHttpServer({
    handshakeTimeout: timeouts.readHeaderTimeoutMs,
    key: options.key,
    cert: options.cert,
    ca: options.requestHeaderCA ? `${options.clientCA}\n${options.requestHeaderCA}` : options.clientCA,
    requestCert: true,
    // Requests without a verified certificate still reach authentication (tokens, anonymous).
    rejectUnauthorized: false,
    ALPNProtocols: ["http/1.1"],
  });
  const connections = new ConnectionTracker(timeouts);
  tlsServer.maxConnections = options.maxConnections ?? maxConnectionsFor(openFileLimit());
  let capLoggedAt = -Infinity;
  tlsServer.on("drop", () => {
    if (Date.now() - capLoggedAt < CAP_LOG_INTERVAL_MS) return;
    capLoggedAt = Date.now();
    log.warning(`connection limit reached (${tlsServer.maxConnections} open): refusing new connections until some close`);
  });
  tlsServer.on("secureConnection", (socket: TLSSocket) => {
    connections.add(socket);
    socket.on("error", () => socket.destroy());
  });
  // Advertised in the Keep-Alive header; ConnectionTracker enforces it (Bun does not on handed-over sockets).
  httpServer.keepAliveTimeout = timeouts.idleTimeoutMs;
  httpServer.on("request", (request: IncomingMessage, response: ServerResponse) => {
    connections.trackRequest(request.socket, request, response);
    requestListener(request, response);
  });
  // A failed handshake (garbage bytes, unknown CA on the client side, a handshake timeout) concerns only that socket.
  tlsServer.on("tlsClientError", (_error, socket) => socket.destroy());
  httpServer.on("clientError", (error: Error & { code?: string }, socket: Socket) => answerUnreadableRequest(error, socket));

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
      if (httpServer !== tlsServer) httpServer.close();
      await closed;
    },
  };
}

/**
 * Under Bun a node:https server does not show requests the client certificate, so a node:tls server hands each
 * secure socket to a node:http server. Under Deno that hand-off closes kept-alive connections after the first
 * response, and node:https shows the certificate, so one node:https server does both.
 */
function secureHttpServer(tlsOptions: TlsOptions): { tlsServer: TlsServer; httpServer: HttpServer | HttpsServer } {
  if ("Deno" in globalThis) {
    const server = createHttpsServer({ ...tlsOptions, maxHeaderSize: MAX_HEADER_BYTES });
    return { tlsServer: server, httpServer: server };
  }
  const tlsServer = createTlsServer(tlsOptions);
  const httpServer = createHttpServer({ maxHeaderSize: MAX_HEADER_BYTES });
  tlsServer.on("secureConnection", (socket: TLSSocket) => httpServer.emit("connection", socket));
  return { tlsServer, httpServer };
}

/**
 * Go's net/http answers (conn.serve) to a request it cannot read: a head over MaxHeaderBytes gets 431, any
 * other malformed head 400, both as plain text closing the connection; a connection that broke gets no answer.
 */
function answerUnreadableRequest(error: Error & { code?: string }, socket: Socket): void {
  if (!error.code?.startsWith("HPE_") || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === "HPE_HEADER_OVERFLOW" ? "431 Request Header Fields Too Large" : "400 Bad Request";
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${status}`);
}

/** The peer certificate cannot change during a TLS connection, so it is read and verified once per socket. */
const connectionInfoBySocket = new WeakMap<TLSSocket, ConnectionInfo>();

function connectionInfo(incoming: IncomingMessage | undefined, fromClientCA: ChainVerifier): ConnectionInfo {
  const socket = incoming?.socket as TLSSocket | undefined;
  if (!socket) return {};
  let info = connectionInfoBySocket.get(socket);
  if (!info) {
    info = { ...readConnectionInfo(socket, fromClientCA), remoteAddress: socket.remoteAddress };
    connectionInfoBySocket.set(socket, info);
  }
  return info;
}

function readConnectionInfo(socket: TLSSocket, fromClientCA: ChainVerifier): ConnectionInfo {
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
