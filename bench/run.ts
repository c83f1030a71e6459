/**
 * kubun's benchmark: starts the compiled server with `npm start`'s flags (Node,RBAC, NodeRestriction; default
 * --storage-sync FULL) and prints throughput and latency figures next to baselines measured in the same run on the
 * same machine, then the same figures with the server on etcd beside SQLite's. Not a test.
 * Run: node_modules/.bin/bun bench/run.ts (after bash compile.sh).
 */
import { startServer, type TestServer } from "../tests/harness.ts";
import { WatchStream } from "../tests/watch-stream.ts";
import { expectStatus, latencies, percentile, rate } from "./_load.ts";
import { commitBatchBuckets, describeBatches } from "./_commit-batches.ts";
import { rawInsertRate, storageCreateRate } from "./_raw-sqlite.ts";
import { requestPathRows } from "./_request-path.ts";
import { type CreateFigure, keptAliveCreates } from "./_creates.ts";
import { ETCD_BINARY, rawEtcdPutRate, startTestEtcd } from "../core/storage/etcd/testing.ts";
import { existsSync } from "node:fs";
import { watchFanoutRows } from "./watch-fanout.ts";
import { npmStartFlags } from "../scripts/record-bytecode-order.ts";

const CONCURRENCY = 32;
/** Issue 16's durable-create figure: 64 clients against the raw single-commit ceiling. */
const CREATE_CLIENTS = 64;
const SEQUENTIAL_CREATES = 300;
const COLLECTION_SIZE = 10_000;
const GETS = 8_000;
const WATCH_WRITES = 200;
const RAW_INSERTS = 2_000;
const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json" };

function configMapBody(namespace: string, name: string): string {
  return JSON.stringify({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace, labels: { app: "bench" } },
    data: { key: "value".repeat(20) },
  });
}

async function create(server: TestServer, namespace: string, name: string): Promise<Response> {
  const response = await server.request("POST", `/api/v1/namespaces/${namespace}/configmaps`, {
    body: configMapBody(namespace, name),
    headers: JSON_HEADERS,
  });
  expectStatus(response, 201, `create ${namespace}/${name}`);
  return response;
}

async function createNamespace(server: TestServer, name: string): Promise<void> {
  const response = await server.request("POST", "/api/v1/namespaces", {
    body: JSON.stringify({ apiVersion: "v1", kind: "Namespace", metadata: { name } }),
    headers: JSON_HEADERS,
  });
  expectStatus(response, 201, `create namespace ${name}`);
  await response.text();
}

/** Milliseconds from sending each create to receiving its watch event. */
async function watchLatencies(server: TestServer): Promise<number[]> {
  await createNamespace(server, "bench-watch");
  const response = await server.request("GET", "/api/v1/namespaces/bench-watch/configmaps?watch=true&labelSelector=app%3Dbench", {
    headers: JSON_HEADERS,
  });
  const stream = new WatchStream(response);
  try {
    const samples: number[] = [];
    for (let i = 0; i < WATCH_WRITES; i++) {
      const name = `w-${i}`;
      const started = performance.now();
      const [event] = await Promise.all([stream.next(10_000), create(server, "bench-watch", name).then((r) => r.text())]);
      if (event?.object?.metadata?.name !== name) {
        throw new Error(`expected the event of ${name}, got ${JSON.stringify(event)?.slice(0, 200)}`);
      }
      samples.push(performance.now() - started);
    }
    return samples;
  } finally {
    await stream.close();
  }
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

function perSecond(value: number): string {
  return `${Math.round(value).toLocaleString("en-US")}/s`;
}

interface StoreFigures {
  sequential: number;
  concurrent: number;
  gets: number;
  fullList: number[];
  pagedList: number[];
  watch: number[];
  payloadBytes: number;
  /** SQLite's group commit during the concurrent creates; etcd has no such histogram. */
  batches?: string;
}

/** Creates, gets, lists and watch latency against one server: the figures compared between storage backends. */
async function measureStore(server: TestServer, options: { groupCommit: boolean }): Promise<StoreFigures> {
  await createNamespace(server, "bench-seq");
  const sequential = await rate(SEQUENTIAL_CREATES, 1, async (i) => void (await (await create(server, "bench-seq", `s-${i}`)).text()));

  await createNamespace(server, "bench");
  let payloadBytes = 0;
  const batchesBefore = options.groupCommit ? await commitBatchBuckets(server) : undefined;
  const concurrent = await rate(COLLECTION_SIZE, CREATE_CLIENTS, async (i) => {
    const text = await (await create(server, "bench", `c-${String(i).padStart(5, "0")}`)).text();
    if (i === 0) payloadBytes = text.length;
  });
  const batches = batchesBefore && describeBatches(batchesBefore, await commitBatchBuckets(server), COLLECTION_SIZE);

  const gets = await rate(GETS, CONCURRENCY, async (i) => {
    const response = await server.request(
      "GET",
      `/api/v1/namespaces/bench/configmaps/c-${String((i * 7919) % COLLECTION_SIZE).padStart(5, "0")}`,
      { headers: JSON_HEADERS },
    );
    expectStatus(response, 200, "get");
    await response.arrayBuffer();
  });

  const listOf = (query: string) => async () => {
    const response = await server.request("GET", `/api/v1/namespaces/bench/configmaps${query}`, { headers: JSON_HEADERS });
    expectStatus(response, 200, "list");
    await response.arrayBuffer();
  };
  const fullList = await latencies(15, listOf(""));
  const pagedList = await latencies(40, listOf("?limit=500"));
  const watch = await watchLatencies(server);
  return { sequential, concurrent, gets, fullList, pagedList, watch, payloadBytes, batches };
}

const p50p95 = (samples: number[]) => `${ms(percentile(samples, 50))} / ${ms(percentile(samples, 95))}`;

async function main(): Promise<void> {
  const server = await startServer(npmStartFlags());
  const rows: [string, string][] = [];
  let sqlite: StoreFigures;
  try {
    sqlite = await measureStore(server, { groupCommit: true });
    const { sequential, concurrent, payloadBytes } = sqlite;
    rows.push(["creates/s, sequential (1 client)", perSecond(sequential)]);
    rows.push([`creates/s, ${CREATE_CLIENTS} concurrent clients`, perSecond(concurrent)]);
    rows.push([`writes per durable transaction during the ${CREATE_CLIENTS}-client creates (histogram)`, sqlite.batches ?? ""]);
    rows.push([`gets/s, ${CONCURRENCY} concurrent clients`, perSecond(sqlite.gets)]);
    rows.push([`list of ${COLLECTION_SIZE.toLocaleString("en-US")} objects, p50 / p95`, p50p95(sqlite.fullList)]);
    rows.push(["list with limit=500 (first page), p50 / p95", p50p95(sqlite.pagedList)]);
    rows.push(["watch event latency (write sent → event received), p50 / p95", p50p95(sqlite.watch)]);
    rows.push(...await watchFanoutRows(server));

    const raw = await rawInsertRate(RAW_INSERTS, payloadBytes);
    rows.push([`raw bun:sqlite inserts/s (WAL, synchronous=FULL, 1 row/txn, ${payloadBytes} B)`, perSecond(raw)]);
    rows.push(["ratio sequential create/s ÷ raw insert/s", (sequential / raw).toFixed(2)]);
    rows.push([
      `ratio ${CREATE_CLIENTS}-client create/s ÷ raw insert/s (a TLS handshake per create; issue 16's figure is the kept-alive row)`,
      (concurrent / raw).toFixed(2),
    ]);
    const storageAlone = await storageCreateRate(COLLECTION_SIZE, CREATE_CLIENTS, payloadBytes);
    rows.push([`kubun's SQLite store alone, ${CREATE_CLIENTS} concurrent writers in the bench process`, perSecond(storageAlone)]);
    rows.push(["ratio store-alone create/s ÷ raw insert/s", (storageAlone / raw).toFixed(2)]);
    // The creates above open a connection per request; clients keep theirs, so these show the create path itself.
    const keptAlive = await keptAliveCreates(server, { durationMs: 4000, clients: CREATE_CLIENTS, warmUpMs: 2000 });
    const createFigure = (figure: CreateFigure) =>
      `${perSecond(figure.perSecond)} (${(figure.perSecond / raw).toFixed(2)} × raw insert/s); ${
        Math.round(figure.cpuMicroseconds)
      } µs server CPU per create (${Math.round(figure.mainThreadMicroseconds)} µs on its main thread, ${
        Math.round(figure.jitMicroseconds)
      } µs in the JIT's threads)`;
    const overKeptAlive = "kept-alive TLS connections, load generator in its own process";
    rows.push([`creates/s, 1 client, ${overKeptAlive}`, createFigure(keptAlive.sequential)]);
    rows.push([`creates/s, ${CREATE_CLIENTS} clients, ${overKeptAlive} (goal ≥ 1.5 × raw)`, createFigure(keptAlive.concurrent)]);
    rows.push([`writes per durable transaction during those ${CREATE_CLIENTS}-client creates (histogram)`, keptAlive.concurrent.batches]);

    // Out of process, over kept-alive connections: the fetch clients above open a connection per request.
    rows.push(
      ...(await requestPathRows(server, "/api/v1/namespaces/bench/configmaps/c-00000", { durationMs: 3000, connections: CONCURRENCY })),
    );
  } finally {
    await server.stop();
  }
  rows.push(...(await etcdRows(sqlite)));

  console.log(`| Measure (${navigator.hardwareConcurrency} cores, Bun ${Bun.version}) | Result |`);
  console.log("|---|---|");
  for (const [measure, result] of rows) console.log(`| ${measure} | ${result} |`);
}

/**
 * The same figures with the server on etcd (Debian's etcd 3.4 on loopback, --etcd-servers) beside SQLite's, and
 * raw etcd puts (the etcd client in this process, one txn at a time and 32 at once) as the ceiling of its writes.
 */
async function etcdRows(sqlite: StoreFigures): Promise<[string, string][]> {
  if (!existsSync(ETCD_BINARY)) return [["etcd rows", `skipped: ${ETCD_BINARY} is missing (bash scripts/install-test-deps.sh)`]];
  const etcd = await startTestEtcd();
  try {
    const server = await startServer([...npmStartFlags(), "--etcd-servers", etcd.endpoint]);
    let figures: StoreFigures;
    try {
      figures = await measureStore(server, { groupCommit: false });
    } finally {
      await server.stop();
    }
    const puts = {
      sequential: await rawEtcdPutRate(etcd.endpoint, { count: SEQUENTIAL_CREATES, concurrency: 1, payloadBytes: figures.payloadBytes }),
      concurrent: await rawEtcdPutRate(etcd.endpoint, {
        count: RAW_INSERTS,
        concurrency: CREATE_CLIENTS,
        payloadBytes: figures.payloadBytes,
      }),
    };
    const beside = (etcdValue: string, sqliteValue: string) => `${etcdValue} (SQLite ${sqliteValue})`;
    return [
      ["etcd: creates/s, sequential (1 client)", beside(perSecond(figures.sequential), perSecond(sqlite.sequential))],
      [`etcd: creates/s, ${CREATE_CLIENTS} concurrent clients`, beside(perSecond(figures.concurrent), perSecond(sqlite.concurrent))],
      [`etcd: gets/s, ${CONCURRENCY} concurrent clients`, beside(perSecond(figures.gets), perSecond(sqlite.gets))],
      [
        `etcd: list of ${COLLECTION_SIZE.toLocaleString("en-US")} objects, p50 / p95`,
        beside(p50p95(figures.fullList), p50p95(sqlite.fullList)),
      ],
      ["etcd: watch event latency, p50 / p95", beside(p50p95(figures.watch), p50p95(sqlite.watch))],
      [
        `raw etcd puts/s (txn, ${figures.payloadBytes} B), 1 / ${CREATE_CLIENTS} at once`,
        `${perSecond(puts.sequential)} / ${perSecond(puts.concurrent)}`,
      ],
      ["ratio etcd sequential create/s ÷ raw put/s", (figures.sequential / puts.sequential).toFixed(2)],
      [`ratio etcd ${CREATE_CLIENTS}-client create/s ÷ raw put/s`, (figures.concurrent / puts.concurrent).toFixed(2)],
    ];
  } finally {
    await etcd.stop();
  }
}

await main();
