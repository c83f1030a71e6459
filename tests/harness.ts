/**
 * End-to-end harness: starts the compiled `dist/kubun` on loopback with a fresh data directory and
 * hands tests kubectl and HTTPS clients that use the admin kubeconfig's client certificate.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { sharedTestEtcd } from "../core/storage/etcd/testing.ts";
import { parse } from "yaml";
import { KUBECTL, KubectlProcess } from "./_kubectl-stream.ts";

export const KUBUN_BINARY = resolve(import.meta.dir, "../dist/kubun");
const PROJECT_ROOT = resolve(import.meta.dir, "..");
const KUBECTL_TIMEOUT_MS = 30_000;
const STARTUP_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 10_000;

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RequestOptions {
  body?: string | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** "manual" to see a redirect itself instead of following it. */
  redirect?: RequestRedirect;
}

export interface TestServer {
  url: string;
  /** The server process's id (benchmarks read its /proc counters). */
  pid: number;
  dataDir: string;
  kubeconfig: string;
  kubectl(args: string[], opts?: { stdin?: string }): Promise<CommandResult>;
  /** A kubectl left running (`get -w`); the caller stops it. */
  kubectlInBackground(args: string[]): KubectlProcess;
  /** fetch with the admin client certificate (CN=admin, O=system:masters). */
  request(method: string, path: string, opts?: RequestOptions): Promise<Response>;
  /** fetch that trusts the server but presents no client certificate. */
  requestAnonymous(method: string, path: string, opts?: RequestOptions): Promise<Response>;
  /** What the server has written to stderr so far. */
  log(): string;
  /** SIGTERM, wait for exit, remove the data directory. */
  stop(): Promise<void>;
  /** SIGKILL and wait for exit; the data directory is kept for a restart. */
  kill9(): Promise<void>;
  /** SIGTERM and wait for exit; the data directory is kept (another server may share it). */
  terminate(): Promise<void>;
}

export interface StartOptions {
  /** Reuse this data directory (a restart) instead of a fresh temporary one. */
  dataDir?: string;
  /** Run this kubun executable instead of dist/kubun (e.g. one compiled with baked-in plugins). */
  binary?: string;
  /** Environment variables set for the server on top of this process's. */
  env?: Record<string, string>;
}

export interface Credentials {
  url: string;
  ca: string;
  cert: string;
  key: string;
}

/** Every server still running, so a crashed test file never leaves one behind. */
const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/**
 * The server under test: the compiled binary, or with KUBUN_TEST_RUNTIME=deno the source under Deno with the
 * permissions of deno.json's `start` task.
 */
export function serverCommand(): string[] {
  if (process.env.KUBUN_TEST_RUNTIME === "deno") {
    const task: string = JSON.parse(readFileSync(join(PROJECT_ROOT, "deno.json"), "utf8")).tasks.start;
    // `deno run <permissions> main.ts`, without the task's own server flags: each test picks those.
    const [, ...words] = task.split(/\s+/);
    const runArgs = words.slice(0, words.indexOf("main.ts") + 1);
    return [join(PROJECT_ROOT, "node_modules/.bin/deno"), ...runArgs.map((arg) => (arg === "main.ts" ? join(PROJECT_ROOT, arg) : arg))];
  }
  if (!existsSync(KUBUN_BINARY)) throw new Error(`${KUBUN_BINARY} is missing: run bash compile.sh first`);
  return [KUBUN_BINARY];
}

/**
 * With KUBUN_TEST_STORAGE=etcd (scripts/test.sh's etcd pass) a server that names no store of its own keeps its data in
 * one etcd shared by the test process, under a prefix named after its data directory, so a restart finds it again.
 */
async function storageFlags(flags: string[], dataDir: string): Promise<string[]> {
  if (process.env.KUBUN_TEST_STORAGE !== "etcd" || flags.some((flag) => flag.startsWith("--etcd-servers"))) return [];
  const etcd = await sharedTestEtcd();
  return ["--etcd-servers", etcd.endpoint, "--etcd-prefix", `/${basename(dataDir)}`];
}

export async function startServer(flags: string[] = [], options: StartOptions = {}): Promise<TestServer> {
  const [program, ...programArgs] = options.binary ? [options.binary] : serverCommand();
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "kubun-e2e-")));
  flags = [...(await storageFlags(flags, dataDir)), ...flags];
  const kubeconfig = join(dataDir, "admin.kubeconfig");
  // A restart must not read the previous run's kubeconfig (it names the old port).
  await rm(kubeconfig, { force: true });

  const child = spawn(program!, [...programArgs, "--secure-port", "0", "--bind-address", "127.0.0.1", "--data-dir", dataDir, ...flags], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...options.env },
  });
  running.add(child);
  let log = "";
  child.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  exited.then(() => running.delete(child));

  const stopWith = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    // A server that hangs in shutdown must not hang the suite.
    const forced = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(forced);
  };

  let credentials: Credentials;
  try {
    credentials = await waitForStartup(kubeconfig, child, () => log);
  } catch (error) {
    await stopWith("SIGKILL");
    if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    throw error;
  }

  const send = (withCert: boolean) => (method: string, path: string, opts: RequestOptions = {}) =>
    fetch(credentials.url + path, {
      method,
      body: opts.body,
      headers: opts.headers,
      signal: opts.signal,
      redirect: opts.redirect,
      tls: withCert ? { ca: credentials.ca, cert: credentials.cert, key: credentials.key } : { ca: credentials.ca },
    });

  return {
    url: credentials.url,
    pid: child.pid!,
    dataDir,
    kubeconfig,
    kubectl: (args, opts) => runKubectl(["--kubeconfig", kubeconfig, ...args], opts?.stdin),
    kubectlInBackground: (args) => new KubectlProcess(kubeconfig, args),
    request: send(true),
    requestAnonymous: send(false),
    log: () => log,
    stop: async () => {
      await stopWith("SIGTERM");
      await rm(dataDir, { recursive: true, force: true });
    },
    kill9: () => stopWith("SIGKILL"),
    terminate: () => stopWith("SIGTERM"),
  };
}

async function waitForStartup(kubeconfig: string, child: ChildProcess, log: () => string): Promise<Credentials> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  const failIfGone = () => {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`kubun exited during start-up:\n${log()}`);
    if (Date.now() > deadline) throw new Error(`kubun not ready after ${STARTUP_TIMEOUT_MS} ms:\n${log()}`);
  };
  while (!existsSync(kubeconfig)) {
    failIfGone();
    await Bun.sleep(25);
  }
  const credentials = readCredentials(await readFile(kubeconfig, "utf8"));
  for (;;) {
    failIfGone();
    // Health paths are authorized like any other: an authorizer's 403 still means the server is serving.
    const ready = await fetch(`${credentials.url}/readyz`, { tls: { ca: credentials.ca, cert: credentials.cert, key: credentials.key } })
      .then(
        (response) => response.status === 200 || response.status === 403,
        () => false,
      );
    if (ready) return credentials;
    await Bun.sleep(50);
  }
}

export function readCredentials(text: string): Credentials {
  const config = parse(text);
  const fromBase64 = (value: string) => Buffer.from(value, "base64").toString("utf8");
  return {
    url: config.clusters[0].cluster.server,
    ca: fromBase64(config.clusters[0].cluster["certificate-authority-data"]),
    cert: fromBase64(config.users[0].user["client-certificate-data"]),
    key: fromBase64(config.users[0].user["client-key-data"]),
  };
}

/** Runs kubectl with exactly these arguments (callers pass their own --kubeconfig). */
export function runKubectl(args: string[], stdin?: string): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = execFile(KUBECTL, args, { timeout: KUBECTL_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
    child.stdin!.end(stdin ?? "");
  });
}
