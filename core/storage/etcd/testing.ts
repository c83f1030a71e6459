/**
 * Test kit: a real etcd (Debian's etcd-server, /usr/bin/etcd, installed by scripts/install-test-deps.sh) on free
 * loopback client and peer ports with a throwaway data directory.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";

export const ETCD_BINARY = process.env.KUBUN_ETCD_BINARY ?? "/usr/bin/etcd";

let shared: Promise<TestEtcd> | undefined;

/** One etcd for the whole test process (end-to-end passes on etcd give each server a prefix of its own). */
export function sharedTestEtcd(): Promise<TestEtcd> {
  return (shared ??= startTestEtcd());
}

export interface TestEtcd {
  /** `http://127.0.0.1:<port>`. */
  endpoint: string;
  /** SIGKILL, keeping the data directory for start(). */
  kill(): Promise<void>;
  /** Starts it again on the same ports and data (after kill()). */
  start(): Promise<void>;
  /** Stops it and removes its data. */
  stop(): Promise<void>;
}

/** Every etcd still running and its data directory, so a crashed test process never leaves one behind. */
const running = new Map<ChildProcess, string>();
process.on("exit", () => {
  for (const [child, dir] of running) {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
});

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startTestEtcd(): Promise<TestEtcd> {
  const dir = mkdtempSync(join(tmpdir(), "kubun-etcd-"));
  const [clientPort, peerPort] = [await freePort(), await freePort()];
  const endpoint = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const args = [
    `--name=kubun-test`,
    `--data-dir=${join(dir, "data")}`,
    `--listen-client-urls=${endpoint}`,
    `--advertise-client-urls=${endpoint}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=kubun-test=${peer}`,
    "--log-level=error",
  ];
  let child: ChildProcess | undefined;

  const start = async () => {
    const etcd = spawn(ETCD_BINARY, args, { stdio: ["ignore", "ignore", "pipe"] });
    child = etcd;
    running.set(etcd, dir);
    etcd.once("exit", () => running.delete(etcd));
    let stderr = "";
    etcd.stderr!.on("data", (chunk) => (stderr += chunk));
    const deadline = Date.now() + 20_000;
    while (!(await healthy(endpoint))) {
      if (etcd.exitCode !== null) throw new Error(`etcd exited with ${etcd.exitCode}: ${stderr}`);
      if (Date.now() > deadline) throw new Error(`etcd did not become ready: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const kill = async () => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGKILL");
    await exited;
  };

  await start();
  return {
    endpoint,
    kill,
    start,
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function healthy(endpoint: string): Promise<boolean> {
  try {
    const response = await fetch(`${endpoint}/health`);
    return response.ok;
  } catch {
    return false;
  }
}
