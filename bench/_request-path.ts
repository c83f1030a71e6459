/**
 * The per-request cost over kept-alive TLS connections, every figure beside the same-run ceiling of a trivial
 * server on the same listener stack: the load generator (bench/_keepalive-client.ts) and each server run in
 * their own processes, so the server has the machine's cores to itself as far as they allow.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { TestServer } from "../tests/harness.ts";
import type { LoadOptions, LoadResult } from "./_keepalive-client.ts";
import type { HelloMode } from "./_hello-server.ts";
import { expectStatus } from "./_load.ts";
import { cpuMilliseconds, mainThreadCpuMilliseconds } from "./_process.ts";

const CLIENT = resolve(import.meta.dir, "_keepalive-client.ts");
const HELLO = resolve(import.meta.dir, "_hello-server.ts");
const WARM_UP_MS = 3000;
/** Long enough for the server's idle release (memory-release checks every 2 s). */
const IDLE_PAUSE_MS = 10_000;
const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json" };

/** Requests per second, and the server's CPU time per request (steadier than the rate on a shared machine). */
export interface Figure {
  perSecond: number;
  cpuMicroseconds: number;
  /** Of that, the main thread's (the JavaScript): the rest is the JIT compiling and the collector's helpers. */
  mainThreadMicroseconds: number;
}

export interface RequestPathFigures {
  helloNodeTlsHttp: Figure;
  /** The floors under node:http: a fixed answer per request head over node:tls, and over Bun.listen's TLS. */
  floorNodeTls: Figure;
  floorBunListen: Figure;
  helloKubunListener: Figure;
  healthz: Figure;
  getClientCertificate: Figure;
  getServiceAccountToken: Figure;
  healthzAfterIdle: Figure;
}

export async function measure(pid: number, options: LoadOptions): Promise<Figure> {
  const cpuBefore = cpuMilliseconds(pid);
  const mainBefore = mainThreadCpuMilliseconds(pid);
  const result = await load(options);
  const perRequest = (milliseconds: number) => (milliseconds * 1000) / result.requests;
  return {
    perSecond: result.perSecond,
    cpuMicroseconds: perRequest(cpuMilliseconds(pid) - cpuBefore),
    mainThreadMicroseconds: perRequest(mainThreadCpuMilliseconds(pid) - mainBefore),
  };
}

function load(options: LoadOptions): Promise<LoadResult> {
  return new Promise((done, fail) => {
    execFile(process.execPath, [CLIENT, JSON.stringify(options)], { maxBuffer: 1 << 20 }, (error, stdout) => {
      if (error) return fail(error);
      const result: LoadResult = JSON.parse(stdout);
      // A POST (bench/request-path-bisect.ts --create) creates an object with a new name each time.
      const expected = options.body === undefined ? "200" : "201";
      const unexpected = Object.keys(result.statuses).filter((status) => status !== expected);
      if (unexpected.length > 0) return fail(new Error(`${options.path}: answers ${JSON.stringify(result.statuses)}`));
      done(result);
    });
  });
}

async function helloRate(mode: HelloMode, dataDir: string, base: Omit<LoadOptions, "port" | "path">): Promise<Figure> {
  const child: ChildProcess = spawn(process.execPath, [HELLO, mode, dataDir], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const [line] = (await once(child.stdout!, "data")) as [Buffer];
    return await measure(child.pid!, { ...base, port: Number(line.toString().trim()), path: "/" });
  } finally {
    child.kill();
  }
}

/** A service account bound to cluster-admin, and a token for it from the TokenRequest API. */
export async function serviceAccountToken(server: Pick<TestServer, "request">): Promise<string> {
  const post = async (path: string, body: unknown) => {
    const response = await server.request("POST", path, { body: JSON.stringify(body), headers: JSON_HEADERS });
    expectStatus(response, 201, `POST ${path}`);
    return await response.json();
  };
  await post("/api/v1/namespaces/default/serviceaccounts", { metadata: { name: "bench" } });
  await post("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", {
    metadata: { name: "bench" },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "cluster-admin" },
    subjects: [{ kind: "ServiceAccount", name: "bench", namespace: "default" }],
  });
  const review = await post("/api/v1/namespaces/default/serviceaccounts/bench/token", { spec: {} });
  return review.status.token;
}

/** `objectPath` is a GET path that answers 200 on `server`. */
async function requestPathRates(
  server: TestServer,
  objectPath: string,
  options: { durationMs: number; connections: number },
): Promise<RequestPathFigures> {
  const [ca, cert, key] = await Promise.all(
    ["ca.crt", "admin.crt", "admin.key"].map((file) => readFile(join(server.dataDir, file), "utf8")),
  );
  const port = Number(new URL(server.url).port);
  const base = { ...options, ca };
  const admin = { ...base, port, cert, key };
  const token = await serviceAccountToken(server);
  const helloNodeTlsHttp = await helloRate("node-tls-http", server.dataDir, base);
  const helloKubunListener = await helloRate("kubun-listener", server.dataDir, base);
  const floorNodeTls = await helloRate("node-tls-raw", server.dataDir, base);
  const floorBunListen = await helloRate("bun-listen-raw", server.dataDir, base);
  // Not measured: the server's JIT warming up on the path. The warm-up runs right before its row: a pause (such as
  // a hello run) lets the server go idle, which gives back the burst's compiled code (core/runtime/memory-release.ts).
  const warmed = async (options: LoadOptions) => {
    await load({ ...options, durationMs: WARM_UP_MS });
    return await measure(server.pid, options);
  };
  const healthz = await warmed({ ...admin, path: "/healthz" });
  const getClientCertificate = await warmed({ ...admin, path: objectPath });
  const getServiceAccountToken = await warmed({ ...base, port, token, path: objectPath });
  // What a burst after a pause costs while the JIT compiles its path again.
  await new Promise((resolve) => setTimeout(resolve, IDLE_PAUSE_MS));
  const healthzAfterIdle = await measure(server.pid, { ...admin, path: "/healthz" });
  return {
    helloNodeTlsHttp,
    floorNodeTls,
    floorBunListen,
    helloKubunListener,
    healthz,
    getClientCertificate,
    getServiceAccountToken,
    healthzAfterIdle,
  };
}

function perSecond(value: number): string {
  return `${Math.round(value).toLocaleString("en-US")}/s`;
}

/** The figures as benchmark rows: each rate and CPU cost beside the node:tls → node:http hello's of the same run. */
export async function requestPathRows(
  server: TestServer,
  objectPath: string,
  options: { durationMs: number; connections: number },
): Promise<[string, string][]> {
  const figures = await requestPathRates(server, objectPath, options);
  const hello = figures.helloNodeTlsHttp;
  const against = (figure: Figure) =>
    `${perSecond(figure.perSecond)} (${(figure.perSecond / hello.perSecond).toFixed(2)} × hello); ${
      Math.round(figure.cpuMicroseconds)
    } µs server CPU per request (${Math.round(figure.mainThreadMicroseconds)} µs on its main thread)`;
  const over = `${options.connections} kept-alive TLS connections`;
  return [
    [`hello ceiling: node:tls → node:http, trivial handler, ${over}`, against(hello)],
    [`floor: node:tls, a fixed answer per request head (no node:http), ${over}`, against(figures.floorNodeTls)],
    [`floor: Bun.listen's TLS, a fixed answer per request head, ${over}`, against(figures.floorBunListen)],
    [`kubun listener, trivial handler, ${over}`, against(figures.helloKubunListener)],
    [`GET /healthz (admin client certificate), ${over}`, against(figures.healthz)],
    [`GET one ConfigMap, admin client certificate, ${over}`, against(figures.getClientCertificate)],
    [`GET one ConfigMap, service account token, ${over}`, against(figures.getServiceAccountToken)],
    [`GET /healthz, first ${options.durationMs / 1000} s after ${IDLE_PAUSE_MS / 1000} s idle, ${over}`, against(figures.healthzAfterIdle)],
  ];
}
