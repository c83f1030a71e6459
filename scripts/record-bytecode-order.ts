/**
 * Records which functions of a compiled binary a server start uses, for compile.sh's second build
 * (`--bytecode-order`): Bun then lays that bytecode out together at the front of the embedded bundle, so a start
 * touches fewer of its pages (bench/profiles/memory.md). The binary runs with `npm start`'s flags on a fresh data
 * directory, answers a client's first requests once /readyz says 200, is stopped after its controllers' first passes,
 * then is started again on the same directory, as a restart takes paths the first start does not (certificates read,
 * not issued), and is left idle as long as bench/memory.bench.ts waits before reading an idle server's memory; each
 * run writes its own profile (BUN_BYTECODE_ORDER_OUT). Bun gives the first profile listed the front: the restart's,
 * the way a server usually starts and then idles.
 * Run: bun scripts/record-bytecode-order.ts BINARY OUT_PREFIX (writes OUT_PREFIX.start and OUT_PREFIX.restart,
 * prints them comma-separated for --bytecode-order).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { Buffer } from "node:buffer";
import { connect } from "node:http2";
import { get } from "node:https";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

/** After /readyz: the controllers' first passes run within this time. */
const SETTLE_MS = 1_000;
/**
 * After the restart's requests: an idle server's periodic work runs within this time (memory-release.ts's idle release
 * 2-4 s after start, then the 10 s periods: the identity lease's renewal, the garbage collector's resync, APF's
 * borrowing). Recorded only after 1 s, that work's functions lay among the cold ones, each read with the 64 KiB the
 * kernel maps around a fault: the idle server kept 0.8 MiB more of the embedded bundle (bench/profiles/memory.md).
 */
export const IDLE_MS = 12_000;
const START_TIMEOUT_MS = 60_000;
const POLL_MS = 50;

/** `npm start`'s server flags (package.json), the way the binary is measured and usually run. */
export function npmStartFlags(): string[] {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const start: string = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts.start;
  const words = start.split(/\s+/);
  return words.slice(words.indexOf("main.ts") + 1);
}

/**
 * What a client asks right after start, as the kubeconfig's admin, over HTTP/1.1 and HTTP/2 (kubectl's): discovery,
 * one object and one list. A served request runs code a start does not (TLS with a client certificate, the filters,
 * the router); without it in the profile the first request read 1.3 MB more (bench/profiles/memory.md).
 */
const CLIENT_PATHS = ["/api", "/apis", "/api/v1/namespaces/default", "/api/v1/namespaces"];

type Get = (path: string) => Promise<number | undefined>;

interface Admin {
  server: string;
  tls: { ca: Buffer; cert: Buffer; key: Buffer };
}

function readAdmin(kubeconfigPath: string): Admin {
  const config = parse(readFileSync(kubeconfigPath, "utf8"));
  const cluster = config.clusters[0].cluster;
  const user = config.users[0].user;
  const decode = (value: string) => Buffer.from(value, "base64");
  return {
    server: cluster.server,
    tls: {
      ca: decode(cluster["certificate-authority-data"]),
      cert: decode(user["client-certificate-data"]),
      key: decode(user["client-key-data"]),
    },
  };
}

/** A GET over HTTP/1.1; answers the status, undefined when the connection failed. */
const http1Get = ({ server, tls }: Admin): Get => (path) =>
  new Promise((resolve) => {
    get(`${server}${path}`, tls, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode));
    }).on("error", () => resolve(undefined));
  });

/** The same over HTTP/2, one session per GET. */
const http2Get = ({ server, tls }: Admin): Get => (path) =>
  new Promise((resolve) => {
    const session = connect(server, tls);
    session.on("error", () => resolve(undefined));
    const request = session.request({ ":path": path });
    let status: number | undefined;
    request.on("response", (headers) => (status = Number(headers[":status"])));
    request.on("error", () => resolve(undefined));
    request.resume();
    request.on("end", () => {
      session.close();
      resolve(status);
    });
  });

/** Waits for /readyz 200 while `running`, GETs CLIENT_PATHS, then leaves the server alone for `settleMs`. */
async function clientSession(kubeconfig: string, running: () => boolean, settleMs: number): Promise<void> {
  const deadline = performance.now() + START_TIMEOUT_MS;
  while (!(existsSync(kubeconfig) && await http1Get(readAdmin(kubeconfig))("/readyz") === 200)) {
    if (!running() || performance.now() > deadline) throw new Error("did not become ready");
    await sleep(POLL_MS);
  }
  const admin = readAdmin(kubeconfig);
  for (const client of [http1Get(admin), http2Get(admin)]) {
    for (const path of CLIENT_PATHS) {
      const status = await client(path);
      if (status !== 200) throw new Error(`GET ${path} answered ${status}, not 200`);
    }
  }
  await sleep(settleMs);
}

async function recordRun(binary: string, dataDir: string, out: string, settleMs: number): Promise<void> {
  const kubeconfig = join(dataDir, "admin.kubeconfig");
  await rm(kubeconfig, { force: true });
  const args = ["--secure-port", "0", "--bind-address", "127.0.0.1", "--data-dir", dataDir, ...npmStartFlags()];
  let stderr = "";
  const child: ChildProcess = spawn(binary, args, {
    env: { ...process.env, BUN_BYTECODE_ORDER_OUT: out },
    stdio: ["ignore", "ignore", "pipe"],
  });
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  // "close": exited and its stderr read to the end.
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  try {
    await clientSession(kubeconfig, () => child.exitCode === null, settleMs);
  } catch (error) {
    child.kill("SIGKILL");
    await closed;
    throw new Error(`${binary}: ${(error as Error).message}\n${stderr}`);
  }
  child.kill("SIGTERM");
  await closed;
  if (!existsSync(out) || statSync(out).size === 0) throw new Error(`${binary} wrote no bytecode order to ${out}`);
}

/** Records a start and a restart of `binary`; answers the profiles' paths as --bytecode-order takes them. */
export async function recordBytecodeOrder(binary: string, outPrefix: string): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), "kubun-bytecode-order-"));
  try {
    const [start, restart] = [`${outPrefix}.start`, `${outPrefix}.restart`];
    await recordRun(binary, dataDir, start, SETTLE_MS);
    await recordRun(binary, dataDir, restart, IDLE_MS);
    return `${restart},${start}`;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const [binary, outPrefix] = process.argv.slice(2);
  if (!binary || !outPrefix) throw new Error("usage: record-bytecode-order.ts BINARY OUT_PREFIX");
  process.stdout.write(`${await recordBytecodeOrder(binary, outPrefix)}\n`);
}
