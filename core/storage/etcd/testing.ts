/**
 * Test kit: a real etcd (Debian's etcd-server, /usr/bin/etcd, installed by scripts/install-test-deps.sh) on free
 * loopback client and peer ports with a throwaway data directory.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { EtcdClient } from "./_client.ts";

export const ETCD_BINARY = process.env.KUBUN_ETCD_BINARY ?? "/usr/bin/etcd";

let shared: Promise<TestEtcd> | undefined;

/** One etcd for the whole test process (end-to-end passes on etcd give each server a prefix of its own). */
export function sharedTestEtcd(): Promise<TestEtcd> {
  return (shared ??= startTestEtcd());
}

export interface TestEtcd {
  /** `http://127.0.0.1:<port>` (`https://` with TLS). */
  endpoint: string;
  /** With TLS: the CA file and a client certificate and key etcd accepts. */
  client?: { caFile: string; certFile: string; keyFile: string };
  /** SIGKILL, keeping the data directory for start(). */
  kill(): Promise<void>;
  /** Starts it again on the same ports and data (after kill()). */
  start(): Promise<void>;
  /** SIGSTOP / SIGCONT: etcd hangs without closing its connections (pause resolves once every thread stopped). */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Stops it and removes its data. */
  stop(): Promise<void>;
}

/**
 * etcd runs under a small shell that waits for it and, beside it, watches this process: a test process that ends
 * without stopping it (bun test runs no exit handlers; a crash) takes its etcd and data directory along. The shell
 * prints etcd's pid first, so signals go to etcd itself; the shell ends when etcd does.
 */
const WATCHDOG = [
  'etcd="$1"; parent="$2"; dir="$3"; shift 3',
  '"$etcd" "$@" & e=$!',
  "echo $e",
  '( while kill -0 "$parent" 2>/dev/null; do sleep 0.2; done; kill -9 $e 2>/dev/null; rm -rf "$dir" ) & w=$!',
  "wait $e; status=$?",
  "kill $w 2>/dev/null",
  "exit $status",
].join("\n");

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** With `tls`, etcd serves HTTPS with a certificate of a fresh CA and requires client certificates of it. */
export async function startTestEtcd(options: { tls?: boolean } = {}): Promise<TestEtcd> {
  return (await startMembers(1, options))[0]!;
}

export interface TestEtcdCluster {
  /** Every member's client URL, as --etcd-servers takes them. */
  endpoints: string[];
  members: TestEtcd[];
  stop(): Promise<void>;
}

/** A cluster of `size` members on loopback (an odd size keeps a quorum when one member is lost). */
export async function startTestEtcdCluster(size: number): Promise<TestEtcdCluster> {
  const members = await startMembers(size, {});
  return {
    endpoints: members.map((member) => member.endpoint),
    members,
    stop: async () => void (await Promise.all(members.map((member) => member.stop()))),
  };
}

async function startMembers(size: number, options: { tls?: boolean }): Promise<TestEtcd[]> {
  const dir = mkdtempSync(join(tmpdir(), "kubun-etcd-"));
  const pki = options.tls ? issueTestPki(dir) : undefined;
  const names = Array.from({ length: size }, (_, i) => `kubun-test-${i}`);
  const ports = await Promise.all(names.map(async () => [await freePort(), await freePort()] as const));
  const endpoints = ports.map(([client]) => `${options.tls ? "https" : "http"}://127.0.0.1:${client}`);
  const peers = ports.map(([, peer]) => `http://127.0.0.1:${peer}`);
  const initialCluster = names.map((name, i) => `${name}=${peers[i]}`).join(",");
  const members = names.map((name, i) => {
    const endpoint = endpoints[i]!;
    const args = [
      `--name=${name}`,
      `--data-dir=${join(dir, name)}`,
      `--listen-client-urls=${endpoint}`,
      `--advertise-client-urls=${endpoint}`,
      `--listen-peer-urls=${peers[i]}`,
      `--initial-advertise-peer-urls=${peers[i]}`,
      `--initial-cluster=${initialCluster}`,
      "--log-level=error",
      ...(pki
        ? [`--cert-file=${pki.serverCert}`, `--key-file=${pki.serverKey}`, `--trusted-ca-file=${pki.caFile}`, "--client-cert-auth"]
        : []),
    ];
    return etcdMember(endpoint, args, dir, pki?.client);
  });
  // A new cluster's members answer healthy only once a quorum of them runs: start every one, then wait.
  const started = members.map((member) => member.spawn());
  await Promise.all(started.map((waitHealthy) => waitHealthy()));
  let left = members.length;
  return members.map((member) => ({
    endpoint: member.endpoint,
    client: pki?.client,
    kill: member.kill,
    start: () => member.spawn()(),
    pause: member.pause,
    resume: member.resume,
    stop: async () => {
      await member.kill();
      if (--left === 0) rmSync(dir, { recursive: true, force: true });
    },
  }));
}

type ClientFiles = { caFile: string; certFile: string; keyFile: string };

/** One etcd process under the watchdog: spawn() starts it and answers a wait for its health. */
function etcdMember(endpoint: string, args: string[], dir: string, client: ClientFiles | undefined) {
  let child: { shell: ChildProcess; pid: Promise<number> } | undefined;
  const spawnMember = () => {
    const shell = spawn("/bin/sh", ["-c", WATCHDOG, "etcd-watchdog", ETCD_BINARY, String(process.pid), dir, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    shell.stderr!.on("data", (chunk) => (stderr += chunk));
    const pid = new Promise<number>((resolve, reject) => {
      shell.stdout!.once("data", (chunk) => resolve(Number.parseInt(String(chunk), 10)));
      shell.once("exit", (code) => reject(new Error(`etcd exited with ${code}: ${stderr}`)));
    });
    child = { shell, pid };
    return async () => {
      await pid;
      const deadline = Date.now() + 20_000;
      while (!(await healthy(endpoint, client))) {
        if (shell.exitCode !== null) throw new Error(`etcd exited with ${shell.exitCode}: ${stderr}`);
        if (Date.now() > deadline) throw new Error(`etcd did not become ready: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
  };
  const alive = () => child !== undefined && child.shell.exitCode === null && child.shell.signalCode === null;
  const signal = async (name: NodeJS.Signals) => {
    if (alive()) process.kill(await child!.pid, name);
  };
  const kill = async () => {
    const current = child;
    if (!current || !alive()) return;
    const exited = new Promise((resolve) => current.shell.once("exit", resolve));
    await signal("SIGCONT");
    await signal("SIGKILL");
    await exited;
  };
  return {
    endpoint,
    spawn: spawnMember,
    kill,
    pause: async () => {
      await signal("SIGSTOP");
      if (alive()) await allThreadsStopped(await child!.pid);
    },
    resume: () => signal("SIGCONT"),
  };
}

/** A SIGSTOP stops each thread as it next runs: wait until none can still answer a request. */
async function allThreadsStopped(pid: number): Promise<void> {
  const isStopped = (tid: string) => /\) [tT] /.test(readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8"));
  for (let tries = 0; tries < 400 && !readdirSync(`/proc/${pid}/task`).every(isStopped); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function healthy(endpoint: string, client?: { caFile: string; certFile: string; keyFile: string }): Promise<boolean> {
  const tls = client &&
    { ca: readFileSync(client.caFile, "utf8"), cert: readFileSync(client.certFile, "utf8"), key: readFileSync(client.keyFile, "utf8") };
  try {
    const response = await fetch(`${endpoint}/health`, tls ? { tls } as RequestInit : {});
    return response.ok;
  } catch {
    return false;
  }
}

/** Compacts etcd's history through `revision`, as a compactor (kube's, or another server's) does. */
export async function compactTestEtcd(endpoint: string, revision: number): Promise<void> {
  const client = new EtcdClient({ endpoints: [endpoint] });
  try {
    await client.compact(revision);
  } finally {
    client.close();
  }
}

/** A TCP relay in front of etcd that a test can cut: one server loses etcd while others keep using it. */
export interface EtcdLink {
  /** `http://127.0.0.1:<port>`, as --etcd-servers takes it. */
  endpoint: string;
  /** Drops every relayed connection and refuses new ones. */
  cut(): void;
  /** Accepts connections again. */
  restore(): void;
  close(): Promise<void>;
}

export async function startEtcdLink(target: string): Promise<EtcdLink> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let open = true;
  const relay = createServer((client) => {
    if (!open) return void client.destroy();
    const upstream = connect(Number(port), hostname);
    const drop = () => {
      for (const socket of [client, upstream]) {
        socket.destroy();
        sockets.delete(socket);
      }
    };
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", drop).on("close", drop);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const cut = () => {
    open = false;
    for (const socket of [...sockets]) socket.destroy();
    sockets.clear();
  };
  return {
    endpoint: `http://127.0.0.1:${(relay.address() as { port: number }).port}`,
    cut,
    restore: () => void (open = true),
    close: async () => {
      cut();
      await new Promise((resolve) => relay.close(resolve));
    },
  };
}

/**
 * The ceiling of the backend's writes: puts of `payloadBytes`-byte values straight through the etcd client (no
 * server, no codec), each a create txn like the backend's, `concurrency` at a time; answers puts per second.
 */
export async function rawEtcdPutRate(
  endpoint: string,
  options: { count: number; concurrency: number; payloadBytes: number },
): Promise<number> {
  const client = new EtcdClient({ endpoints: [endpoint] });
  const value = new Uint8Array(options.payloadBytes).fill(120);
  const run = crypto.randomUUID();
  let next = 0;
  try {
    const started = performance.now();
    const worker = async () => {
      while (next < options.count) {
        const key = new TextEncoder().encode(`/raw-${run}/${next++}`);
        await client.txn({ compare: [{ result: 0, target: 2, key, modRevision: 0 }], success: [{ requestPut: { key, value } }] });
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    return options.count / ((performance.now() - started) / 1000);
  } finally {
    client.close();
  }
}

/** A CA, etcd's serving certificate for 127.0.0.1 and a client certificate, made with openssl in `dir`. */
function issueTestPki(dir: string) {
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "ignore" });
  const key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
  openssl("req", "-x509", ...key, "-keyout", file("ca.key"), "-out", file("ca.crt"), "-subj", "/CN=kubun-test-etcd-ca", "-days", "1");
  const issue = (name: string, extensions: string) => {
    writeFileSync(file(`${name}.ext`), extensions);
    openssl("req", ...key, "-keyout", file(`${name}.key`), "-out", file(`${name}.csr`), "-subj", `/CN=${name}`);
    openssl(
      "x509",
      "-req",
      "-in",
      file(`${name}.csr`),
      "-CA",
      file("ca.crt"),
      "-CAkey",
      file("ca.key"),
      "-CAcreateserial",
      "-days",
      "1",
      "-out",
      file(`${name}.crt`),
      "-extfile",
      file(`${name}.ext`),
    );
  };
  issue("server", "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
  issue("client", "extendedKeyUsage=clientAuth\n");
  return {
    caFile: file("ca.crt"),
    serverCert: file("server.crt"),
    serverKey: file("server.key"),
    client: { caFile: file("ca.crt"), certFile: file("client.crt"), keyFile: file("client.key") },
  };
}
