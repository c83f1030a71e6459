/**
 * Cost of API Priority and Fairness per request (classification through kube's bootstrap FlowSchemas, seat
 * accounting, the PF headers) against the same compiled server with --enable-priority-and-fairness=false (kube's
 * max-in-flight filter instead), measured in the same run; this script is the load generator, each server runs in
 * its own process. Requests impersonate an ordinary user, so classification walks every FlowSchema down to
 * global-default (precedence 9900), the longest path. Rounds alternate between the servers and the best round of
 * each counts, the first server alternating. Goal: under 10% slower. Not a test.
 * Run: node_modules/.bin/bun bench/apf.bench.ts (after bash compile.sh).
 */
import { startServer, type TestServer } from "../tests/harness.ts";
import { expectStatus, rate } from "./_load.ts";

const CONCURRENCY = 16;
const GETS = 4_000;
const ROUNDS = 4;
const HEADERS = { Accept: "application/json", "Impersonate-User": "bench-user" };

async function getsPerSecond(server: TestServer): Promise<number> {
  return await rate(GETS, CONCURRENCY, async () => {
    const response = await server.request("GET", "/api/v1/namespaces/default/configmaps/bench", { headers: HEADERS });
    expectStatus(response, 200, "get");
    await response.text();
  });
}

const withApf = await startServer();
const withoutApf = await startServer(["--enable-priority-and-fairness=false"]);
try {
  for (const server of [withApf, withoutApf]) {
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
  const best = { withApf: 0, withoutApf: 0 };
  // Which server goes first alternates, so a neighbour's burst does not always land on the same one.
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (["withoutApf", "withApf"] as const) : (["withApf", "withoutApf"] as const);
    for (const which of order) best[which] = Math.max(best[which], await getsPerSecond(which === "withApf" ? withApf : withoutApf));
  }
  const slower = ((best.withoutApf - best.withApf) / best.withoutApf) * 100;
  console.log(
    `GET as an ordinary user, ${CONCURRENCY} clients: ${Math.round(best.withoutApf)}/s with max-in-flight (APF off), ${
      Math.round(best.withApf)
    }/s with APF (${slower.toFixed(1)}% slower; ratio ${(best.withApf / best.withoutApf).toFixed(3)})`,
  );
} finally {
  await withApf.stop();
  await withoutApf.stop();
}
