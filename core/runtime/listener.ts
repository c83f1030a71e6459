/**
 * The HTTPS listener. `Bun.serve` and `Deno.serve` cannot show the handler the client certificate, so TLS is
 * terminated by node's servers (see secureHttpServer) whose requests become fetch `Request`s (via
 * @hono/node-server) together with the peer certificate.
 */
import { Buffer } from "node:buffer";
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { createServer as createTlsServer, type DetailedPeerCertificate, type Server as TlsServer, type TlsOptions, type TLSSocket } from "node:tls";
import { getRequestListener } from "@hono/node-server";
import { chainVerifier, type ChainVerifier } from "./certificate-chain.ts";

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
}

export interface HttpsListener {
  port: number;
  close(): Promise<void>;
}

export async function listenHttps(handler: ConnectionHandler, options: HttpsOptions): Promise<HttpsListener> {
  const requestListener = getRequestListener(
    (request, env) => {
      const incoming = ("incoming" in env ? env.incoming : undefined) as IncomingMessage | undefined;
      return handler(request, { ...connectionInfo(incoming, fromClientCA), requestTarget: incoming?.url });
    },
    { overrideGlobalObjects: false },
  );
  const fromClientCA = chainVerifier(options.clientCA);
  const { tlsServer, httpServer } = secureHttpServer({
    key: options.key,
    cert: options.cert,
    ca: options.requestHeaderCA ? `${options.clientCA}\n${options.requestHeaderCA}` : options.clientCA,
    requestCert: true,
    // Requests without a verified certificate still reach authentication (tokens, anonymous).
    rejectUnauthorized: false,
    ALPNProtocols: ["http/1.1"],
  });
  const connections = new ConnectionTracker();
  tlsServer.on("secureConnection", (socket: TLSSocket) => {
    connections.add(socket);
    socket.on("error", () => socket.destroy());
  });
  httpServer.on("request", (request: IncomingMessage, response: ServerResponse) => {
    connections.trackRequest(request.socket, response);
    requestListener(request, response);
  });
  // A failed handshake (garbage bytes, unknown CA on the client side) concerns only that socket.
  tlsServer.on("tlsClientError", (_error, socket) => socket.destroy());
  httpServer.on("clientError", (_error, socket) => socket.destroy());

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
    const server = createHttpsServer(tlsOptions);
    return { tlsServer: server, httpServer: server };
  }
  const tlsServer = createTlsServer(tlsOptions);
  const httpServer = createHttpServer();
  tlsServer.on("secureConnection", (socket: TLSSocket) => httpServer.emit("connection", socket));
  return { tlsServer, httpServer };
}

/** Open connections and their running requests, so close() can let requests finish first. */
class ConnectionTracker {
  #runningBySocket = new Map<Socket, number>();
  #running = 0;
  #draining = false;
  #onIdle: (() => void) | undefined;

  add(socket: Socket): void {
    this.#runningBySocket.set(socket, 0);
    socket.on("close", () => this.#runningBySocket.delete(socket));
  }

  trackRequest(socket: Socket, response: ServerResponse): void {
    const running = this.#runningBySocket.get(socket);
    if (running === undefined) return;
    this.#runningBySocket.set(socket, running + 1);
    this.#running++;
    response.on("close", () => {
      this.#running--;
      const left = this.#runningBySocket.get(socket);
      // A response closes after its socket when the client went away; that socket is already gone.
      if (left !== undefined) {
        this.#runningBySocket.set(socket, left - 1);
        if (this.#draining && left === 1) socket.destroy();
      }
      if (this.#running === 0) this.#onIdle?.();
    });
  }

  /** Closes idle connections now, busy ones when their requests end, and all of them after graceMs. */
  async drain(graceMs: number): Promise<void> {
    this.#draining = true;
    for (const [socket, running] of this.#runningBySocket) if (running === 0) socket.destroy();
    if (this.#running > 0) {
      const idle = new Promise<void>((resolve) => (this.#onIdle = resolve));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const expired = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([idle, expired]);
      clearTimeout(timer);
    }
    for (const socket of this.#runningBySocket.keys()) socket.destroy();
  }
}

/** The peer certificate cannot change during a TLS connection, so it is read and verified once per socket. */
const connectionInfoBySocket = new WeakMap<TLSSocket, ConnectionInfo>();

function connectionInfo(incoming: IncomingMessage | undefined, fromClientCA: ChainVerifier): ConnectionInfo {
  const socket = incoming?.socket as TLSSocket | undefined;
  if (!socket) return {};
  let info = connectionInfoBySocket.get(socket);
  if (!info) {
    info = readConnectionInfo(socket, fromClientCA);
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
