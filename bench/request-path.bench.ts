/**
 * The request path's fixed cost (issue 16): GET one ConfigMap with a client certificate and with a service
 * account token, and /healthz, over 32 kept-alive TLS connections, each beside the same-run ceiling of a trivial
 * handler behind node:tls → node:http. The server runs with `npm start`'s flags (Node,RBAC); server and load
 * generator run in separate processes. Not a test.
 * Run: node_modules/.bin/bun bench/request-path.bench.ts (after bash compile.sh).
 */
import { startServer } from "../tests/harness.ts";
import { appChainCpuMicroseconds } from "./_app-chain.ts";
import { expectStatus } from "./_load.ts";
import { requestPathRows } from "./_request-path.ts";
import { npmStartFlags } from "../scripts/record-bytecode-order.ts";

const server = await startServer(npmStartFlags());
try {
  const seed = await server.request("POST", "/api/v1/namespaces/default/configmaps", {
    body: JSON.stringify({ metadata: { name: "bench" }, data: { key: "value".repeat(20) } }),
    headers: { "Content-Type": "application/json" },
  });
  expectStatus(seed, 201, "seed");
  const rows = await requestPathRows(server, "/api/v1/namespaces/default/configmaps/bench", { durationMs: 3000, connections: 32 });
  console.log(`| Measure (${navigator.hardwareConcurrency} cores, Bun ${Bun.version}) | Result |`);
  console.log("|---|---|");
  for (const [measure, result] of rows) console.log(`| ${measure} | ${result} |`);
} finally {
  await server.stop();
}
const chain = await appChainCpuMicroseconds(["/healthz", "/api/v1/namespaces/default/configmaps/bench"]);
for (const [path, microseconds] of chain) {
  console.log(`| request chain alone, in-process (no TLS, no sockets), GET ${path} | ${Math.round(microseconds)} µs CPU per request |`);
}
