/**
 * A trivial "ok" server in its own process, the ceiling the request path is measured against:
 * `node-tls-http` is node:tls handing sockets to node:http (kubun's listener without anything on top),
 * `kubun-listener` is core/runtime's listener with a handler answering at once.
 * Run: bun bench/_hello-server.ts <mode> <dataDir>; prints the port, then serves until killed (SIGUSR2: see _cell-window.ts).
 */
import { readFile } from "node:fs/promises";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createServer as createTlsServer, type TLSSocket } from "node:tls";
import { completeResponse } from "../core/runtime/fetch-adapter.ts";
import { listenHttps } from "../core/runtime/listener.ts";
import { countCellsOnSignal } from "./_cell-window.ts";

export type HelloMode = "node-tls-http" | "kubun-listener";

const [mode, dataDir] = process.argv.slice(2) as [HelloMode, string];
countCellsOnSignal();
const [ca, cert, key] = await Promise.all(
  ["ca.crt", "apiserver.crt", "apiserver.key"].map((file) => readFile(join(dataDir, file), "utf8")),
);

if (mode === "node-tls-http") {
  const tlsServer = createTlsServer({ key, cert, ca, requestCert: true, rejectUnauthorized: false, ALPNProtocols: ["http/1.1"] });
  const httpServer = createHttpServer((_request, response) => response.end("ok"));
  tlsServer.on("secureConnection", (socket: TLSSocket) => httpServer.emit("connection", socket));
  await new Promise<void>((resolve) => tlsServer.listen(0, "127.0.0.1", resolve));
  console.log((tlsServer.address() as AddressInfo).port);
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
