/**
 * A load generator meant to run in its own process: `connections` kept-alive HTTP/1.1 connections over TLS, each
 * sending one request (a GET, or a POST of `body`) after the other for `durationMs`. It writes raw request heads and reads just enough of each
 * answer (status, Content-Length or chunked end) to send the next, so it costs the server's machine little.
 * Run: bun bench/_keepalive-client.ts '<JSON of LoadOptions>'; prints the JSON of LoadResult.
 */
import { connect, type TLSSocket } from "node:tls";

export interface LoadOptions {
  port: number;
  path: string;
  durationMs: number;
  connections: number;
  ca: string;
  cert?: string;
  key?: string;
  token?: string;
  /** A JSON body to POST instead of the GET; each `{n}` in it becomes a number unique to the request (an object name). */
  body?: string;
  /**
   * At most this many requests a second over all connections (each waits for its share of the interval before its
   * next request), so servers compared at different speeds do the same work per second; unset: as fast as answered.
   */
  perSecond?: number;
}

export interface LoadResult {
  perSecond: number;
  requests: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
}

const HEAD_END = "\r\n\r\n";
const CHUNKED_END = "\r\n0\r\n\r\n";

/** Bytes of one complete answer at the start of `text`, or 0 while it is incomplete. */
export function answerLength(text: string): number {
  const headEnd = text.indexOf(HEAD_END);
  if (headEnd < 0) return 0;
  const head = text.slice(0, headEnd).toLowerCase();
  const length = /\r\ncontent-length: *(\d+)/.exec(head);
  if (length) {
    const total = headEnd + HEAD_END.length + Number(length[1]);
    return text.length >= total ? total : 0;
  }
  if (!head.includes("transfer-encoding: chunked")) return headEnd + HEAD_END.length;
  const end = text.indexOf(CHUNKED_END, headEnd);
  return end < 0 ? 0 : end + CHUNKED_END.length;
}

let sent = 0;

function requestText(options: LoadOptions): string {
  const auth = options.token ? `Authorization: Bearer ${options.token}\r\n` : "";
  const head = `${options.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n${auth}`;
  if (options.body === undefined) return `GET ${head}\r\n`;
  const body = options.body.replaceAll("{n}", String(sent++));
  return `POST ${head}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

function runConnection(options: LoadOptions, deadline: number, statuses: Map<string, number>, index: number): Promise<number> {
  const interval = options.perSecond ? (1000 * options.connections) / options.perSecond : 0;
  return new Promise((resolve, reject) => {
    let done = 0;
    // Paced connections take turns through the interval rather than all sending at once.
    let nextAt = performance.now() + (index * interval) / options.connections;
    let pending = "";
    const socket: TLSSocket = connect({
      host: "127.0.0.1",
      port: options.port,
      ca: options.ca,
      cert: options.cert,
      key: options.key,
      ALPNProtocols: ["http/1.1"],
    });
    socket.setEncoding("latin1");
    socket.once("secureConnect", () => socket.write(requestText(options)));
    socket.on("data", (chunk: string) => {
      pending += chunk;
      for (let length = answerLength(pending); length > 0; length = answerLength(pending)) {
        const status = pending.slice(9, 12);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        pending = pending.slice(length);
        done++;
        const now = performance.now();
        if (now >= deadline) {
          socket.end();
          return resolve(done);
        }
        if (interval === 0) socket.write(requestText(options));
        else {
          nextAt = Math.max(nextAt + interval, now);
          setTimeout(() => socket.write(requestText(options)), nextAt - now);
        }
      }
    });
    socket.once("error", reject);
    socket.once("close", () => resolve(done));
  });
}

export async function keepAliveLoad(options: LoadOptions): Promise<LoadResult> {
  const statuses = new Map<string, number>();
  const started = performance.now();
  const counts = await Promise.all(
    Array.from({ length: options.connections }, (_, index) => runConnection(options, started + options.durationMs, statuses, index)),
  );
  const seconds = (performance.now() - started) / 1000;
  const requests = counts.reduce((a, b) => a + b, 0);
  return { perSecond: requests / seconds, requests, statuses: Object.fromEntries(statuses) };
}

if (import.meta.main) console.log(JSON.stringify(await keepAliveLoad(JSON.parse(process.argv[2]!))));
