/**
 * Records which functions of a compiled binary a server start uses, for compile.sh's second build
 * (`--bytecode-order`): Bun then lays that bytecode out together at the front of the embedded bundle, so a start
 * touches fewer of its pages (idle RSS 69 → 65 MB, bench/profiles/memory.md). The binary runs with `npm start`'s
 * flags on a fresh data directory, is stopped once /readyz answers 200 and its controllers had their first passes,
 * then started again on the same directory, as a restart takes paths the first start does not (certificates read,
 * not issued); each run writes its own profile (BUN_BYTECODE_ORDER_OUT). Bun gives the first profile listed the
 * front: the restart's, the way a server usually starts.
 * Run: bun scripts/record-bytecode-order.ts BINARY OUT_PREFIX (writes OUT_PREFIX.start and OUT_PREFIX.restart,
 * prints them comma-separated for --bytecode-order).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { Buffer } from "node:buffer";
import { get } from "node:https";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

/** After /readyz: the controllers' first passes run within this time (a longer run recorded no more functions). */
const SETTLE_MS = 1_000;
const START_TIMEOUT_MS = 60_000;
const POLL_MS = 50;

/** `npm start`'s server flags (package.json), the way the binary is measured and usually run. */
export function npmStartFlags(): string[] {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const start: string = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts.start;
  const words = start.split(/\s+/);
  return words.slice(words.indexOf("main.ts") + 1);
}

function readyz(kubeconfigPath: string): Promise<boolean> {
  const cluster = parse(readFileSync(kubeconfigPath, "utf8")).clusters[0].cluster;
  const ca = Buffer.from(cluster["certificate-authority-data"], "base64");
  return new Promise((resolve) => {
    get(`${cluster.server}/readyz`, { ca }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    }).on("error", () => resolve(false));
  });
}

async function recordRun(binary: string, dataDir: string, out: string): Promise<void> {
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
  const deadline = performance.now() + START_TIMEOUT_MS;
  while (!(existsSync(kubeconfig) && await readyz(kubeconfig))) {
    if (child.exitCode !== null || performance.now() > deadline) {
      child.kill("SIGKILL");
      await closed;
      throw new Error(`${binary} did not become ready:\n${stderr}`);
    }
    await sleep(POLL_MS);
  }
  await sleep(SETTLE_MS);
  child.kill("SIGTERM");
  await closed;
  if (!existsSync(out) || statSync(out).size === 0) throw new Error(`${binary} wrote no bytecode order to ${out}`);
}

/** Records a start and a restart of `binary`; answers the profiles' paths as --bytecode-order takes them. */
export async function recordBytecodeOrder(binary: string, outPrefix: string): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), "kubun-bytecode-order-"));
  try {
    const [start, restart] = [`${outPrefix}.start`, `${outPrefix}.restart`];
    await recordRun(binary, dataDir, start);
    await recordRun(binary, dataDir, restart);
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
