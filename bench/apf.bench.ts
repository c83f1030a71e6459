/**
 * Cost of API Priority and Fairness per request (classification through kube's bootstrap FlowSchemas, seat
 * accounting, the PF headers) against the same compiled server with --enable-priority-and-fairness=false (kube's
 * max-in-flight filter instead), measured in the same run; this script is the load generator, each server runs in
 * its own process. Requests impersonate an ordinary user, whose classification walks every FlowSchema down to
 * global-default (precedence 9900), the longest path, once; later requests find it remembered.
 *
 * On a shared machine one round's throughput swings by more than the cost being measured, so each of ROUNDS pairs
 * loads both servers at the same time (a neighbour's burst falls on both alike; taking turns let it fall on one)
 * and gives a ratio: the median ratio and the spread of the ratios are reported, beside the same figures for two
 * APF-off servers measured the same way (the noise floor). Beside throughput, each round reads
 * each server's own CPU time from /proc: CPU milliseconds per request is what APF adds to a request, and a busy
 * neighbour stretches it far less than it stretches wall-clock throughput. Goal: APF adds under 10% per request.
 * Not a test.
 * Run: node_modules/.bin/bun bench/apf.bench.ts [rounds] (after bash compile.sh).
 */
import { startServer, type TestServer } from "../tests/harness.ts";
import { expectStatus, rate } from "./_load.ts";
import { cpuMilliseconds } from "./_process.ts";

const CONCURRENCY = 16;
const GETS = 8_000;
const WARM_UP_GETS = 2_000;
const ROUNDS = Number(process.argv[2] ?? 7);
const GOAL_PERCENT = 10;
const HEADERS = { Accept: "application/json", "Impersonate-User": "bench-user" };

interface Round {
  perSecond: number;
  cpuMsPerRequest: number;
}

async function gets(server: TestServer, count: number): Promise<number> {
  return await rate(count, CONCURRENCY, async () => {
    const response = await server.request("GET", "/api/v1/namespaces/default/configmaps/bench", { headers: HEADERS });
    expectStatus(response, 200, "get");
    await response.text();
  });
}

async function round(server: TestServer): Promise<Round> {
  const cpuBefore = cpuMilliseconds(server.pid);
  const perSecond = await gets(server, GETS);
  return { perSecond, cpuMsPerRequest: (cpuMilliseconds(server.pid) - cpuBefore) / GETS };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** "+4.1% (spread −2.0% … +9.3%)": how much more APF costs per request, median and range over the pairs. */
function costText(costs: number[]): string {
  const percent = (value: number) => `${value >= 0 ? "+" : "−"}${Math.abs(value * 100).toFixed(1)}%`;
  return `${percent(median(costs))} (spread ${percent(Math.min(...costs))} … ${percent(Math.max(...costs))})`;
}

const withApf = await startServer();
const withoutApf = await startServer(["--enable-priority-and-fairness=false"]);
// A second APF-off server measured against the first the same way: the noise floor of the ratios.
const twin = await startServer(["--enable-priority-and-fairness=false"]);
const servers = [withApf, withoutApf, twin];
try {
  for (const server of servers) {
    const seed = await server.request("POST", "/api/v1/namespaces/default/configmaps", {
      body: JSON.stringify({ metadata: { name: "bench" } }),
      headers: { "Content-Type": "application/json" },
    });
    expectStatus(seed, 201, "seed");
  }
  const flowSchemaOf = async (server: TestServer) =>
    (await server.request("GET", "/api/v1/namespaces/default/configmaps/bench", { headers: HEADERS })).headers.get(
      "X-Kubernetes-PF-FlowSchema-UID",
    );
  if (!(await flowSchemaOf(withApf)) || (await flowSchemaOf(withoutApf))) throw new Error("APF is not on exactly one of the servers");
  // The JIT and caches settle before anything counts.
  for (const server of servers) await gets(server, WARM_UP_GETS);
  const costs = { throughput: [] as number[], cpu: [] as number[], floorThroughput: [] as number[], floorCpu: [] as number[] };
  const rates = { withApf: [] as number[], withoutApf: [] as number[] };
  for (let pair = 0; pair < ROUNDS; pair++) {
    // Both servers of a pair take their load at the same time, so a neighbour's burst falls on both alike.
    const [apf, plain] = await Promise.all([round(withApf), round(withoutApf)]);
    rates.withApf.push(apf.perSecond);
    rates.withoutApf.push(plain.perSecond);
    costs.throughput.push(plain.perSecond / apf.perSecond - 1);
    costs.cpu.push(apf.cpuMsPerRequest / plain.cpuMsPerRequest - 1);
    const [other, same] = await Promise.all([round(twin), round(withoutApf)]);
    costs.floorThroughput.push(same.perSecond / other.perSecond - 1);
    costs.floorCpu.push(other.cpuMsPerRequest / same.cpuMsPerRequest - 1);
  }
  const cpuCost = median(costs.cpu);
  console.log(
    `GET as an ordinary user, ${CONCURRENCY} clients, ${ROUNDS} rounds of ${GETS} requests to each server side by side: median ${
      Math.round(median(rates.withoutApf))
    }/s with max-in-flight (APF off), ${Math.round(median(rates.withApf))}/s with APF`,
  );
  console.log(
    `  time per request with APF: ${costText(costs.throughput)}; noise floor (APF off twice): ${costText(costs.floorThroughput)}`,
  );
  console.log(
    `  server CPU per request with APF: ${costText(costs.cpu)}; noise floor: ${costText(costs.floorCpu)}; goal under +${GOAL_PERCENT}%: ${
      cpuCost * 100 < GOAL_PERCENT ? "met" : "NOT met"
    }`,
  );
} finally {
  for (const server of servers) await server.stop();
}
