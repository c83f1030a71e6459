/**
 * Heap cells one request leaves, by type: the whole server in-process (core/server/testing.ts), its chain called
 * directly, JavaScriptCore's cell counts (bun:jsc heapStats) taken after a full collection and again after 100
 * requests that no collection interrupted. A request's scopes, closures, promises and async frames are what makes
 * it slow in the server (bench/profiles/request-path.md, ninth session). Not a test.
 * Run: node_modules/.bin/bun bench/request-cells.ts [--token] [path ...] [-- kube-apiserver flags] (default /healthz and
 * GET of one ConfigMap); `--token` sends a ServiceAccount token bound to cluster-admin and no client certificate.
 */
import { heapStats } from "bun:jsc";
import { type RequestOptions, startInProcess } from "../core/server/testing.ts";
import { serviceAccountToken } from "./_request-path.ts";

const WARM_UP = 3000;
const COUNTED = 100;
/** Types making up less than half a cell per request are left out. */
const SHOWN_FROM = 0.5;

const args = process.argv.slice(2);
const flagsAt = args.indexOf("--");
const [ours, serverFlags] = flagsAt < 0 ? [args, []] : [args.slice(0, flagsAt), args.slice(flagsAt + 1)];
const withToken = ours.includes("--token");
const paths = ours.filter((arg) => arg !== "--token");
const server = await startInProcess(serverFlags);
try {
  const seeded = await server.request("POST", "/api/v1/namespaces/default/configmaps", {
    body: { metadata: { name: "bench" }, data: { key: "value".repeat(20) } },
  });
  if (seeded.status !== 201) throw new Error(`seeding default/bench: ${seeded.status}`);
  const identity: RequestOptions = withToken
    ? { user: null, headers: { Accept: "application/json", Authorization: `Bearer ${await serviceAccountToken(server)}` } }
    : { headers: { Accept: "application/json" } };
  const get = async (path: string, times: number) => {
    for (let i = 0; i < times; i++) {
      const response = await server.request("GET", path, identity);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    }
  };
  for (const path of paths.length > 0 ? paths : ["/healthz", "/api/v1/namespaces/default/configmaps/bench"]) {
    await get(path, WARM_UP);
    Bun.gc(true);
    const before = heapStats().objectTypeCounts;
    await get(path, COUNTED);
    const after = heapStats().objectTypeCounts;
    const perRequest = Object.entries(after)
      .map(([type, count]) => [type, (count - (before[type] ?? 0)) / COUNTED] as const)
      .filter(([, count]) => count >= SHOWN_FROM)
      .sort((a, b) => b[1] - a[1]);
    const total = perRequest.reduce((sum, [, count]) => sum + count, 0);
    console.log(`GET ${path}: ${Math.round(total)} cells per request`);
    for (const [type, count] of perRequest) console.log(`  ${count.toFixed(1).padStart(6)}  ${type}`);
  }
} finally {
  await server.stop();
}
