/**
 * A measuring instrument, not a listener: the smallest HTTP/1.1 server that can carry kubun's real chain, to find
 * what the chain costs over a floor without node:http (bench/_request-path-server.ts's `floor-*` variants). It reads
 * request heads and Content-Length bodies (no chunked bodies, no 100-continue, no pipelining in turn, no timeouts,
 * no malformed-head answers) and writes each answer's head and complete body in one write.
 * `node-tls`: over node:tls's sockets; `bun-listen`: over Bun.listen's TLS sockets (HTTP/1.1 only, no HTTP/2).
 */
import { STATUS_CODES } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer as createTlsServer, type TLSSocket } from "node:tls";
import { chainVerifier } from "../core/runtime/certificate-chain.ts";
import { completeBodyOf, responseHeaders } from "../core/runtime/fetch-adapter.ts";
import { httpDate } from "../core/runtime/http-date.ts";
import {
  type ConnectionHandler,
  type ConnectionInfo,
  type HttpsListener,
  type HttpsOptions,
  readConnectionInfo,
} from "../core/runtime/listener.ts";

export type Floor = "node-tls" | "bun-listen";

const HEAD_END = "\r\n\r\n";
const CRLF = "\r\n";

interface Head {
  method: string;
  target: string;
  headers: Headers;
  host: string;
  bodyBytes: number;
}

function parseHead(text: string): Head {
  const lines = text.split(CRLF);
  const [method, target] = lines[0]!.split(" ") as [string, string];
  const headers = new Headers();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(":");
    headers.append(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return { method, target, headers, host: headers.get("host") ?? "localhost", bodyBytes: Number(headers.get("content-length") ?? 0) };
}

/** One connection: reads requests in turn and hands their answers' bytes to `send`. */
function connectionReader(
  handler: ConnectionHandler,
  info: () => ConnectionInfo,
  send: (bytes: Uint8Array) => void,
): (chunk: Uint8Array) => void {
  let pending = Buffer.alloc(0);
  let head: Head | undefined;
  let busy = false;
  const serveNext = (): void => {
    while (!busy) {
      if (head === undefined) {
        const end = pending.indexOf(HEAD_END, 0, "latin1");
        if (end < 0) return;
        head = parseHead(pending.toString("latin1", 0, end));
        pending = pending.subarray(end + HEAD_END.length);
      }
      if (pending.byteLength < head.bodyBytes) return;
      const body = head.bodyBytes > 0 ? pending.subarray(0, head.bodyBytes) : undefined;
      pending = pending.subarray(head.bodyBytes);
      const { method, target, headers, host } = head;
      head = undefined;
      const request = new Request(`https://${host}${target}`, { method, headers, body });
      const done: (() => void)[] = [];
      const answered = handler(request, { ...info(), requestTarget: target, onResponseDone: (callback) => done.push(callback) });
      busy = true;
      const write = async (response: Response) => {
        send(await answerBytes(response));
        for (const callback of done) callback();
        busy = false;
        serveNext();
      };
      if (answered instanceof Promise) void answered.then(write);
      else void write(answered);
    }
  };
  return (chunk) => {
    pending = pending.byteLength === 0 ? Buffer.from(chunk) : Buffer.concat([pending, chunk]);
    serveNext();
  };
}

async function answerBytes(response: Response): Promise<Uint8Array> {
  const complete = completeBodyOf(response);
  const body = complete === undefined ? new Uint8Array(await response.arrayBuffer()) : Buffer.from(complete);
  const fields = responseHeaders(response.headers, false);
  let head = `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ""}\r\nDate: ${httpDate()}\r\n`;
  for (const name in fields) {
    const value = fields[name];
    for (const one of Array.isArray(value) ? value : [value]) head += `${name}: ${one}\r\n`;
  }
  head += `Content-Length: ${body.byteLength}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, "latin1"), body]);
}

export async function listenFloor(floor: Floor, handler: ConnectionHandler, options: HttpsOptions): Promise<HttpsListener> {
  const fromClientCA = chainVerifier(options.clientCA);
  const tls = { key: options.key, cert: options.cert, ca: options.clientCA, requestCert: true, rejectUnauthorized: false };
  if (floor === "node-tls") {
    const server = createTlsServer({ ...tls, ALPNProtocols: ["http/1.1"] });
    server.on("secureConnection", (socket: TLSSocket) => {
      let info: ConnectionInfo | undefined;
      const connectionInfo = () => (info ??= { ...readConnectionInfo(socket, fromClientCA), remoteAddress: socket.remoteAddress });
      socket.on("data", connectionReader(handler, connectionInfo, (bytes) => socket.write(bytes)));
      socket.on("error", () => socket.destroy());
    });
    await new Promise<void>((resolve) => server.listen(options.port, options.host, resolve));
    return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }
  type State = { read: (chunk: Uint8Array) => void; unsent: Uint8Array[] };
  const flush = (socket: Bun.Socket<State>) => {
    const { unsent } = socket.data;
    while (unsent.length > 0) {
      const written = socket.write(unsent[0]!);
      if (written === unsent[0]!.byteLength) unsent.shift();
      else return void (unsent[0] = unsent[0]!.subarray(Math.max(written, 0)));
    }
  };
  const server = Bun.listen<State>({
    hostname: options.host,
    port: options.port,
    tls: { ...tls, ALPNProtocols: Buffer.from("\x08http/1.1") },
    socket: {
      open(socket) {
        let info: ConnectionInfo | undefined;
        const connectionInfo =
          () => (info ??= { ...readConnectionInfo(socket as unknown as TLSSocket, fromClientCA), remoteAddress: socket.remoteAddress });
        socket.data = {
          unsent: [],
          read: connectionReader(handler, connectionInfo, (bytes) => {
            socket.data.unsent.push(bytes);
            flush(socket);
          }),
        };
      },
      data: (socket, chunk) => socket.data.read(chunk),
      drain: flush,
    },
  });
  return { port: server.port, close: async () => server.stop(true) };
}
