/**
 * A trivial "ok" server in its own process, the ceiling the request path is measured against:
 * `node-tls-http` is node:tls handing sockets to node:http (kubun's listener without anything on top),
 * `kubun-listener` is core/runtime's listener with a handler answering at once. The floors under node:http answer
 * each request head with a fixed answer, reading no more of it than where it ends (GETs only, kept alive):
 * `node-tls-raw` over node:tls's sockets, `bun-listen-raw` over Bun.listen's TLS sockets.
 * Run: bun bench/_hello-server.ts <mode> <dataDir>; prints the port, then serves until killed (SIGUSR2: see _cell-window.ts).
 */
import { readFile } from "node:fs/promises";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createServer as createTlsServer, type TLSSocket } from "node:tls";
import { completeResponse } from "../core/runtime/fetch-adapter.ts";
import { httpDate } from "../core/runtime/http-date.ts";
import { listenHttps } from "../core/runtime/listener.ts";
import { countCellsOnSignal } from "./_cell-window.ts";

export type HelloMode = "node-tls-http" | "kubun-listener" | "node-tls-raw" | "bun-listen-raw";

const HEAD_END = "\r\n\r\n";

/** node:http's answer to the hello, byte for byte but the date. */
function fixedAnswer(): string {
  return `HTTP/1.1 200 OK\r\nDate: ${httpDate()}\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\nContent-Length: 2\r\n\r\nok`;
}

/** One connection's reader: `answer` once per complete request head. */
function headReader(answer: (text: string) => void): (chunk: Uint8Array) => void {
  let pending = "";
  return (chunk) => {
    pending += Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("latin1");
    for (let end = pending.indexOf(HEAD_END); end >= 0; end = pending.indexOf(HEAD_END)) {
      pending = pending.slice(end + HEAD_END.length);
      answer(fixedAnswer());
    }
  };
}

const [mode, dataDir] = process.argv.slice(2) as [HelloMode, string];
countCellsOnSignal();
const [ca, cert, key] = await Promise.all(
  ["ca.crt", "apiserver.crt", "apiserver.key"].map((file) => readFile(join(dataDir, file), "utf8")),
);
const tlsOptions = { key, cert, ca, requestCert: true, rejectUnauthorized: false };

if (mode === "node-tls-http" || mode === "node-tls-raw") {
  const tlsServer = createTlsServer({ ...tlsOptions, ALPNProtocols: ["http/1.1"] });
  if (mode === "node-tls-http") {
    const httpServer = createHttpServer((_request, response) => response.end("ok"));
    tlsServer.on("secureConnection", (socket: TLSSocket) => httpServer.emit("connection", socket));
  } else {
    tlsServer.on("secureConnection", (socket: TLSSocket) => socket.on("data", headReader((text) => socket.write(text))));
  }
  await new Promise<void>((resolve) => tlsServer.listen(0, "127.0.0.1", resolve));
  console.log((tlsServer.address() as AddressInfo).port);
} else if (mode === "bun-listen-raw") {
  const server = Bun.listen<{ read: (chunk: Uint8Array) => void }>({
    hostname: "127.0.0.1",
    port: 0,
    tls: { ...tlsOptions, ALPNProtocols: Buffer.from("\x08http/1.1") },
    socket: {
      open(socket) {
        socket.data = { read: headReader((text) => socket.write(text)) };
      },
      data(socket, chunk) {
        socket.data.read(chunk);
      },
    },
  });
  console.log(server.port);
} else {
  const listener = await listenHttps(() => completeResponse("ok"), {
    host: "127.0.0.1",
    port: 0,
    key,
    cert,
    clientCA: ca,
  });
  console.log(listener.port);
}
