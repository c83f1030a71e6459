/**
 * Heap cells one request makes in a server process, by type, over one kept-alive TLS connection from this
 * process: the hello ceiling (node:tls → node:http answering "ok"), kubun's listener answering "ok"
 * (bench/_hello-server.ts), and the real server from source answering at once or in full
 * (bench/_request-path-server.ts). Each server counts its own cells between two signals (bench/_cell-window.ts), so
 * the client's allocations and the connection's handshake stay out. Not a test.
 * Run: node_modules/.bin/bun bench/listener-cells.ts [--path /healthz] [--requests 100] [--tree DIR]
 * (`--tree` runs the servers from another checkout's source, to compare two builds).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { connect, type TLSSocket } from "node:tls";
import { parseArgs } from "node:util";
import { answerLength } from "./_keepalive-client.ts";

const WARM_UP = 3000;
/** Types making up less than half a cell per request are left out. */
const SHOWN_FROM = 0.5;

const { values } = parseArgs({
  options: {
    path: { type: "string", default: "/healthz" },
    requests: { type: "string", default: "100" },
    tree: { type: "string", default: resolve(import.meta.dir, "..") },
  },
});
const counted = Number(values.requests);
const bench = join(values.tree!, "bench");
const work = mkdtempSync(join(tmpdir(), "kubun-listener-cells-"));
const dataDir = join(work, "data");

interface Served {
  child: ChildProcess;
  port: number;
  stderrLines: AsyncIterator<string>;
}

async function start(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  const [line] = (await once(child.stdout!, "data")) as [Buffer];
  return { child, port: Number(line.toString().trim()), stderrLines: stderrLines(child) };
}

async function* stderrLines(child: ChildProcess): AsyncGenerator<string> {
  let pending = "";
  for await (const chunk of child.stderr!) {
    pending += chunk.toString();
    const lines = pending.split("\n");
    pending = lines.pop()!;
    yield* lines;
  }
}

async function nextLine(served: Served, prefix: string): Promise<string> {
  for (;;) {
    const { value, done } = await served.stderrLines.next();
    if (done) throw new Error(`the server ended before writing ${prefix}`);
    if (value.startsWith(prefix)) return value;
  }
}

/** One kept-alive connection sending GETs one after the other. */
async function connection(port: number): Promise<(times: number) => Promise<void>> {
  const [ca, cert, key] = ["ca.crt", "admin.crt", "admin.key"].map((file) => readFileSync(join(dataDir, file), "utf8"));
  const socket: TLSSocket = connect({ host: "127.0.0.1", port, ca, cert, key, ALPNProtocols: ["http/1.1"] });
  socket.setEncoding("latin1");
  await once(socket, "secureConnect");
  const head = `GET ${values.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n\r\n`;
  return async (times) => {
    for (let i = 0; i < times; i++) {
      socket.write(head);
      let pending = "";
      while (answerLength(pending) === 0) pending += ((await once(socket, "data")) as [string])[0];
      if (!pending.startsWith("HTTP/1.1 200")) throw new Error(`${values.path}: ${pending.slice(0, 12)}`);
    }
  };
}

async function cellsPerRequest(name: string, served: Served): Promise<void> {
  const get = await connection(served.port);
  await get(WARM_UP);
  served.child.kill("SIGUSR2");
  await nextLine(served, "CELLS-START");
  await get(counted);
  served.child.kill("SIGUSR2");
  const made: Record<string, number> = JSON.parse((await nextLine(served, "CELLS ")).slice("CELLS ".length));
  const rows = Object.entries(made)
    .map(([type, count]) => [type, count / counted] as const)
    .filter(([, count]) => count >= SHOWN_FROM)
    .sort((a, b) => b[1] - a[1]);
  const total = Object.values(made).reduce((sum, count) => sum + count, 0) / counted;
  console.log(`${name}: ${Math.round(total)} cells per request`);
  for (const [type, count] of rows) console.log(`  ${count.toFixed(1).padStart(6)}  ${type}`);
}

async function stop(served: Served): Promise<void> {
  served.child.kill();
  await once(served.child, "exit");
}

const serverFlags = ["--secure-port", "0", "--bind-address", "127.0.0.1", "--data-dir", dataDir];
try {
  const full = await start([join(bench, "_request-path-server.ts"), "full", ...serverFlags]);
  await cellsPerRequest(`server, full, GET ${values.path}`, full);
  await stop(full);
  const atOnce = await start([join(bench, "_request-path-server.ts"), "answer-at-once", ...serverFlags]);
  await cellsPerRequest("server, answer-at-once", atOnce);
  await stop(atOnce);
  for (const mode of ["node-tls-http", "kubun-listener"]) {
    const hello = await start([join(bench, "_hello-server.ts"), mode, dataDir]);
    await cellsPerRequest(`hello, ${mode}`, hello);
    await stop(hello);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
