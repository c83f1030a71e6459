/**
 * Open connections, their running requests and their read deadlines. kube-apiserver's secure server
 * (k8s.io/apiserver pkg/server/secure_serving.go, Serve) gives Go's http.Server ReadHeaderTimeout 32s and
 * IdleTimeout 90s; Go bounds the TLS handshake by the same read timeout (conn.serve, tlsHandshakeTimeout).
 * node:http's own timers do not run on sockets handed over from node:tls under Bun, so one sweep applies them:
 * a connection must send a request head within the header timeout, a body that stops arriving for as long
 * is cut, and a kept-alive connection with no request is closed after the idle timeout. A connection whose
 * request is being served (a watch may run for many minutes) has no deadline.
 */
import type { NodeRequest, NodeResponse } from "./fetch-adapter.ts";
import type { Socket } from "node:net";

export interface ConnectionTimeouts {
  /** Time to send a request head, and the longest pause allowed inside a request body. */
  readHeaderTimeoutMs: number;
  /** Time a kept-alive connection may wait for its next request. */
  idleTimeoutMs: number;
}

/** secure_serving.go: ReadHeaderTimeout "just shy of requestTimeoutUpperBound", IdleTimeout as http.DefaultTransport's. */
export const KUBE_CONNECTION_TIMEOUTS: ConnectionTimeouts = { readHeaderTimeoutMs: 32_000, idleTimeoutMs: 90_000 };

type Phase = "head" | "body" | "busy" | "idle";

interface Connection {
  running: number;
  phase: Phase;
  /** When the phase began, or (in "body") when the last body bytes arrived. */
  since: number;
  bytesRead: number;
  /** Told when a request's answer closes: one function per connection, not a closure per request. */
  answerClosed: () => void;
}

export class ConnectionTracker {
  #connections = new Map<Socket, Connection>();
  #running = 0;
  #draining = false;
  #onIdle: (() => void) | undefined;
  #timeouts: ConnectionTimeouts;
  #sweeper: ReturnType<typeof setInterval>;

  constructor(timeouts: ConnectionTimeouts) {
    this.#timeouts = timeouts;
    // A few sweeps per timeout keep the cut within a fraction of it.
    const sweepMs = Math.max(10, Math.min(1000, Math.floor(Math.min(timeouts.readHeaderTimeoutMs, timeouts.idleTimeoutMs) / 4)));
    this.#sweeper = setInterval(() => this.#sweep(), sweepMs);
    this.#sweeper.unref?.();
  }

  get size(): number {
    return this.#connections.size;
  }

  add(socket: Socket): void {
    const connection: Connection = {
      running: 0,
      phase: "head",
      since: Date.now(),
      bytesRead: socket.bytesRead ?? 0,
      answerClosed: () => this.#answerClosed(connection, socket),
    };
    this.#connections.set(socket, connection);
    socket.on("close", () => this.#connections.delete(socket));
  }

  /** A request head arrived: its body (if any) is read under the stall deadline, then it is served without one. */
  trackRequest(socket: Socket, request: NodeRequest, response: NodeResponse): void {
    const connection = this.#connections.get(socket);
    if (connection === undefined) return;
    connection.running++;
    this.#running++;
    const hasBody = !request.readableEnded &&
      (Number(request.headers["content-length"] ?? 0) > 0 || request.headers["transfer-encoding"] !== undefined);
    if (hasBody) {
      this.#enter(connection, socket, "body");
      request.once("end", () => connection.phase === "body" && (connection.phase = "busy"));
    } else connection.phase = "busy";
    response.on("close", connection.answerClosed);
  }

  #answerClosed(connection: Connection, socket: Socket): void {
    this.#running--;
    connection.running--;
    // A response closes after its socket when the client went away; that socket is already gone.
    if (this.#connections.has(socket)) {
      if (connection.running === 0) this.#enter(connection, socket, "idle");
      if (this.#draining && connection.running === 0) socket.destroy();
    }
    if (this.#running === 0) this.#onIdle?.();
  }

  /** A phase with a deadline starts its clock and its count of bytes read; "busy" has none (the sweep skips it). */
  #enter(connection: Connection, socket: Socket, phase: Phase): void {
    connection.phase = phase;
    connection.since = Date.now();
    connection.bytesRead = socket.bytesRead ?? 0;
  }

  #sweep(): void {
    const now = Date.now();
    const { readHeaderTimeoutMs, idleTimeoutMs } = this.#timeouts;
    for (const [socket, connection] of this.#connections) {
      const read = socket.bytesRead ?? 0;
      const progressed = read !== connection.bytesRead;
      connection.bytesRead = read;
      if (connection.phase === "idle" && progressed) {
        // The next request has begun: its head is now due within the header timeout.
        connection.phase = "head";
        connection.since = now;
      } else if (connection.phase === "body" && progressed) {
        connection.since = now;
      }
      const limit = connection.phase === "idle" ? idleTimeoutMs : connection.phase === "busy" ? Infinity : readHeaderTimeoutMs;
      if (now - connection.since > limit) socket.destroy();
    }
  }

  /** Closes idle connections now, busy ones when their requests end, and all of them after graceMs. */
  async drain(graceMs: number): Promise<void> {
    this.#draining = true;
    clearInterval(this.#sweeper);
    for (const [socket, connection] of this.#connections) if (connection.running === 0) socket.destroy();
    if (this.#running > 0) {
      const idle = new Promise<void>((resolve) => (this.#onIdle = resolve));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const expired = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([idle, expired]);
      clearTimeout(timer);
    }
    for (const socket of this.#connections.keys()) socket.destroy();
  }
}
