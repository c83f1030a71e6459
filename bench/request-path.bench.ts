/**
 * The request path's fixed cost (issue 16): GET one ConfigMap with a client certificate and with a service
 * account token, and /healthz, over 32 kept-alive TLS connections, each beside the same-run ceiling of a trivial
 * handler behind node:tls → node:http. Server and load generator run in separate processes. Not a test.
 * Run: node_modules/.bin/bun bench/request-path.bench.ts (after bash compile.sh).
 */
import { startServer } from "../tests/harness.ts";
import { expectStatus } from "./_load.ts";
import { type Figure, requestPathRates } from "./_request-path.ts";

const CONNECTIONS = 32;
const DURATION_MS = 3000;

const server = await startServer();
try {
  const seed = await server.request("POST", "/api/v1/namespaces/default/configmaps", {
    body: JSON.stringify({ metadata: { name: "bench" }, data: { key: "value".repeat(20) } }),
    headers: { "Content-Type": "application/json" },
  });
  expectStatus(seed, 201, "seed");
  const figures = await requestPathRates(server, "/api/v1/namespaces/default/configmaps/bench", {
    durationMs: DURATION_MS,
    connections: CONNECTIONS,
  });
  const ceiling = figures.helloNodeTlsHttp;
  const row = (measure: string, { perSecond, cpuMicroseconds }: Figure) =>
    console.log(
      `| ${measure} | ${Math.round(perSecond).toLocaleString("en-US")}/s | ${(perSecond / ceiling.perSecond).toFixed(2)} | ${
        Math.round(cpuMicroseconds)
      } µs | ${(ceiling.cpuMicroseconds / cpuMicroseconds).toFixed(2)} |`,
    );
  console.log(
    `| ${CONNECTIONS} kept-alive TLS connections (${navigator.hardwareConcurrency} cores, Bun ${Bun.version}) | Result | ÷ hello | server CPU per request | hello CPU ÷ this |`,
  );
  console.log("|---|---|---|---|---|");
  row("hello ceiling: node:tls → node:http, trivial handler", ceiling);
  row("kubun listener, trivial handler", figures.helloKubunListener);
  row("GET /healthz (admin client certificate)", figures.healthz);
  row("GET one ConfigMap, admin client certificate", figures.getClientCertificate);
  row("GET one ConfigMap, service account token", figures.getServiceAccountToken);
} finally {
  await server.stop();
}
