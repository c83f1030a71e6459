/**
 * Cost of API Priority and Fairness per request (classification through kube's bootstrap FlowSchemas, the work
 * estimate, queue-set bookkeeping and metrics, the PF headers) against the same compiled server with
 * --enable-priority-and-fairness=false (kube's max-in-flight filter instead), measured in the same run. Requests
 * come from a service account token: kube's `service-accounts` FlowSchema (precedence 9000) classifies them to
 * workload-low, a queuing level, after the FlowSchemas before it have been tried; the classification is then
 * remembered. Each server runs in its own process, and so does each server's load generator
 * (bench/_keepalive-client.ts: kept-alive TLS connections, one GET after the other on each).
 *
 * On a shared machine one round's throughput swings by more than the cost being measured, so each of ROUNDS rounds
 * loads three servers at the same time — APF on, APF off, and a second APF-off server — so that a neighbour's burst
 * falls on all alike (which client starts first rotates). Each round gives APF's ratio to the APF-off server and the
 * second APF-off server's ratio to it (the noise floor); their medians and spreads are reported. Each round reads
 * each server's own CPU time from /proc: CPU per request is what APF adds to a request. A server's CPU per request also falls as its throughput
 * rises (its background work and per-wakeup costs spread over more requests), so with a rate given both servers
 * are held to it and do the same work per second. Goal: APF adds under 10% per request. Not a test.
 * Run: node_modules/.bin/bun bench/apf.bench.ts [rounds] [seconds per round] [requests per second, 0: unpaced]
 * (after bash compile.sh); BENCH_SERVER_BINARY=<path> runs another build.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { startServer, type TestServer } from "../tests/harness.ts";
import type { LoadOptions } from "./_keepalive-client.ts";
import { expectStatus } from "./_load.ts";
import { type Figure, measure, serviceAccountToken } from "./_request-path.ts";

const CONNECTIONS = 16;
const ROUNDS = Number(process.argv[2] ?? 9);
const ROUND_MS = Number(process.argv[3] ?? 4) * 1000;
const PER_SECOND = Number(process.argv[4] ?? 300);
const WARM_UP_MS = 4000;
const GOAL_PERCENT = 10;
const OBJECT_PATH = "/api/v1/namespaces/default/configmaps/bench";

interface Target {
  server: TestServer;
  load: LoadOptions;
}

async function target(server: TestServer): Promise<Target> {
  const seed = await server.request("POST", "/api/v1/namespaces/default/configmaps", {
    body: JSON.stringify({ metadata: { name: "bench" } }),
    headers: { "Content-Type": "application/json" },
  });
  expectStatus(seed, 201, "seed");
  const token = await serviceAccountToken(server);
  const ca = await readFile(join(server.dataDir, "ca.crt"), "utf8");
  const port = Number(new URL(server.url).port);
  const paced = PER_SECOND > 0 ? { perSecond: PER_SECOND } : {};
  return { server, load: { port, path: OBJECT_PATH, durationMs: ROUND_MS, connections: CONNECTIONS, ca, token, ...paced } };
}

/** The targets loaded at the same time, their clients started from the `turn`-th one on. */
async function together(targets: Target[], turn: number): Promise<Figure[]> {
  const order = targets.map((_, index) => (index + turn) % targets.length);
  const figures: Figure[] = [];
  await Promise.all(order.map(async (index) => (figures[index] = await measure(targets[index]!.server.pid, targets[index]!.load))));
  return figures;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** "+4.1% (spread −2.0% … +9.3%)": how much more the first costs per request, median and range over the rounds. */
function costText(costs: number[]): string {
  const percent = (value: number) => `${value >= 0 ? "+" : "−"}${Math.abs(value * 100).toFixed(1)}%`;
  return `${percent(median(costs))} (spread ${percent(Math.min(...costs))} … ${percent(Math.max(...costs))})`;
}

const binary = process.env.BENCH_SERVER_BINARY;
const servers = await Promise.all([
  startServer([], { binary }),
  startServer(["--enable-priority-and-fairness=false"], { binary }),
  // A second APF-off server measured against the first the same way: the noise floor of the ratios.
  startServer(["--enable-priority-and-fairness=false"], { binary }),
]);
try {
  const [withApf, withoutApf, twin] = await Promise.all(servers.map(target));
  const flowSchemaOf = async (server: TestServer) =>
    (await server.request("GET", OBJECT_PATH)).headers.get("X-Kubernetes-PF-FlowSchema-UID");
  if (!(await flowSchemaOf(withApf!.server)) || (await flowSchemaOf(withoutApf!.server))) {
    throw new Error("APF is not on exactly one of the servers");
  }
  // The JIT, the token cache and the classification settle before anything counts.
  await Promise.all([withApf!, withoutApf!, twin!].map((of) => measure(of.server.pid, { ...of.load, durationMs: WARM_UP_MS })));
  const costs = { throughput: [] as number[], cpu: [] as number[], floorThroughput: [] as number[], floorCpu: [] as number[] };
  const figures = { withApf: [] as Figure[], withoutApf: [] as Figure[] };
  for (let round = 0; round < ROUNDS; round++) {
    // The three servers take their load at the same time, so a neighbour's burst falls on all alike.
    const [apf, plain, other] = await together([withApf!, withoutApf!, twin!], round);
    figures.withApf.push(apf!);
    figures.withoutApf.push(plain!);
    costs.throughput.push(plain!.perSecond / apf!.perSecond - 1);
    costs.cpu.push(apf!.cpuMicroseconds / plain!.cpuMicroseconds - 1);
    costs.floorThroughput.push(plain!.perSecond / other!.perSecond - 1);
    costs.floorCpu.push(other!.cpuMicroseconds / plain!.cpuMicroseconds - 1);
  }
  const middle = (of: Figure[], key: keyof Figure) => Math.round(median(of.map((figure) => figure[key])));
  const cpuCost = median(costs.cpu);
  console.log(
    `GET one ConfigMap with a service account token (workload-low), ${CONNECTIONS} kept-alive TLS connections per server${
      PER_SECOND > 0 ? ` paced to ${PER_SECOND}/s` : ""
    }, ${ROUNDS} rounds of ${ROUND_MS / 1000} s to the three servers side by side: median ${
      middle(figures.withoutApf, "perSecond")
    }/s and ${middle(figures.withoutApf, "cpuMicroseconds")} µs server CPU per request with max-in-flight (APF off); ${
      middle(figures.withApf, "perSecond")
    }/s and ${middle(figures.withApf, "cpuMicroseconds")} µs with APF`,
  );
  console.log(
    `  ${PER_SECOND > 0 ? "rate shortfall" : "time per request"} with APF: ${costText(costs.throughput)}; noise floor (APF off twice): ${
      costText(costs.floorThroughput)
    }`,
  );
  console.log(
    `  server CPU per request with APF: ${costText(costs.cpu)}; noise floor: ${costText(costs.floorCpu)}; goal under +${GOAL_PERCENT}%: ${
      cpuCost * 100 < GOAL_PERCENT ? "met" : "NOT met"
    }`,
  );
} finally {
  await Promise.all(servers.map((server) => server.stop()));
}
