/**
 * The watch fan-out ceiling (issue 16): a trivial TLS server in its own process that writes, for each create it is
 * sent, one pre-serialized chunk straight to every open watch socket: no storage, decoding, streams or per-watcher
 * work. It speaks just enough HTTP/1.1 for the benchmark's watch client and writer.
 * Run by bench/watch-fanout.ts as `bun bench/_fanout-ceiling-server.ts <cert file> <key file>`; prints its port.
 */
import { readFileSync } from "node:fs";
import type { Socket } from "bun";

const [certFile, keyFile] = process.argv.slice(2);
const text = new TextEncoder();
const chunkOf = (object: string) => {
  const frame = text.encode(`{"type":"ADDED","object":${object}}\n`);
  return Buffer.concat([text.encode(`${frame.length.toString(16)}\r\n`), frame, text.encode("\r\n")]);
};
const seed = chunkOf('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"seed"}}');
const WATCH_HEAD = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
const watches = new Set<Socket<{ pending: string }>>();

/** Answers every complete request in the socket's buffer: GETs become watches, POSTs are fanned out. */
function serve(socket: Socket<{ pending: string }>): void {
  for (;;) {
    const pending = socket.data.pending;
    const headEnd = pending.indexOf("\r\n\r\n");
    if (headEnd < 0) return;
    const head = pending.slice(0, headEnd);
    if (head.startsWith("GET ")) {
      socket.data.pending = "";
      socket.write(WATCH_HEAD);
      socket.write(seed);
      watches.add(socket);
      return;
    }
    const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (pending.length < headEnd + 4 + length) return;
    const object = pending.slice(headEnd + 4, headEnd + 4 + length);
    socket.data.pending = pending.slice(headEnd + 4 + length);
    const chunk = chunkOf(object);
    for (const watch of watches) watch.write(chunk);
    socket.write(`HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n${object}`);
  }
}

const listener = Bun.listen<{ pending: string }>({
  hostname: "127.0.0.1",
  port: 0,
  tls: { cert: readFileSync(certFile!, "utf8"), key: readFileSync(keyFile!, "utf8") },
  socket: {
    open: (socket) => void (socket.data = { pending: "" }),
    data(socket, data) {
      socket.data.pending += data.toString("latin1");
      serve(socket);
    },
    close: (socket) => void watches.delete(socket),
  },
});
console.log(listener.port);
