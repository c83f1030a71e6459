/**
 * Added latency per call of a custom admission plugin running in workers (core/admission/isolation), printed
 * next to the same trivial plugin called in-process through the same chain in the same run. Not a test.
 * Run: node_modules/.bin/bun bench/admission-plugin.bench.ts
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AdmissionChain } from "../core/admission/chain.ts";
import { IsolatedPlugin } from "../core/admission/isolation/isolated-plugin.ts";
import { WorkerPool } from "../core/admission/isolation/pool.ts";
import type { AdmissionPlugin } from "../core/admission/types.ts";
import { pluginLogger } from "../core/auth/plugin-context.ts";
import type { AdmittedWrite } from "../core/registry/admission-hook.ts";
import { builtInCatalog } from "../core/registry/catalog.ts";
import { latencies, percentile } from "./_load.ts";

const WARMUP = 2_000;
const CALLS = 20_000;

const trivial = () => ({
  name: "trivial",
  validate(request: { object: { metadata: { labels?: Record<string, string> } } | null }) {
    if (request.object?.metadata.labels?.forbidden) throw new Error("forbidden label");
  },
});

function write(): AdmittedWrite {
  return {
    operation: "CREATE",
    type: builtInCatalog().byGroupVersionResource("", "v1", "configmaps")!,
    subresource: "",
    namespace: "bench",
    name: "c",
    object: {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "c", namespace: "bench", labels: { app: "bench" } },
      data: { k: "v" },
    },
    oldObject: null,
    user: { username: "alice", groups: ["system:authenticated"] },
    dryRun: false,
    options: { kind: "CreateOptions", apiVersion: "meta.k8s.io/v1" },
    warnings: [],
  };
}

async function callLatencies(plugin: AdmissionPlugin): Promise<number[]> {
  const chain = new AdmissionChain([plugin]);
  const call = async () => await chain.validate(write());
  await latencies(WARMUP, call);
  return await latencies(CALLS, call);
}

const dir = await mkdtemp(join(tmpdir(), "kubun-bench-plugin-"));
try {
  const path = join(dir, "trivial.ts");
  await writeFile(path, `export default ${trivial.toString()};\n`);
  const inProcess = await callLatencies(trivial() as AdmissionPlugin);
  const pool = await WorkerPool.start({
    path,
    pluginConfig: undefined,
    config: {},
    size: 2,
    client: { get: () => Promise.resolve(null), list: () => Promise.resolve([]), watch: () => Promise.reject(new Error("unused")) },
    log: pluginLogger("bench"),
  });
  const isolated = await callLatencies(new IsolatedPlugin(pool));
  pool.close();
  const ms = (samples: number[], p: number) => `${percentile(samples, p).toFixed(3)} ms`;
  console.log(`| Measure (${navigator.hardwareConcurrency} cores, Bun ${Bun.version}, ${CALLS} sequential calls) | p50 | p99 |`);
  console.log("|---|---|---|");
  console.log(`| trivial admission plugin, in-process (baseline) | ${ms(inProcess, 50)} | ${ms(inProcess, 99)} |`);
  console.log(`| same plugin in a worker pool (isolated) | ${ms(isolated, 50)} | ${ms(isolated, 99)} |`);
  console.log(
    `| added by isolation | ${(percentile(isolated, 50) - percentile(inProcess, 50)).toFixed(3)} ms | ${
      (percentile(isolated, 99) - percentile(inProcess, 99)).toFixed(3)
    } ms |`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
