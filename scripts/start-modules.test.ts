/**
 * What every start of the compiled server loads: the node built-ins the bundle imports at its top level (Bun loads
 * each before any kubun code runs) and the CommonJS packages it requires there. Each built-in below costs an idle
 * server memory it does not use (core/runtime/lazy-builtins.ts, bench/profiles/memory.md), so they are loaded at
 * their first use; prom-client's index would load node:http, node:https and node:zlib for its Pushgateway, and its CPU
 * collector @opentelemetry/api.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
const LOADED_ON_FIRST_USE = ["http", "https", "http2", "zlib", "node:sqlite"];

async function bundledMain(): Promise<string> {
  const built = await Bun.build({ entrypoints: [join(ROOT, "main.ts")], target: "bun", format: "esm" });
  if (!built.success) throw new AggregateError(built.logs, "bundling main.ts failed");
  return await built.outputs[0]!.text();
}

test(
  "a start loads none of node:http, node:https, node:http2, node:zlib, node:sqlite, prom-client's index, @opentelemetry/api",
  async () => {
    const bundle = await bundledMain();
    const imported = new Set([...bundle.matchAll(/^import .* from "([^"]+)";$/gm)].map((match) => match[1]!));
    expect(imported).toContain("tls");
    expect(LOADED_ON_FIRST_USE.filter((name) => imported.has(name) || imported.has(`node:${name}`))).toEqual([]);
    expect(bundle).toContain("require_counter()");
    expect(bundle).not.toContain("require_prom_client()");
    // prom-client's processCpuTotal loads it for exemplars (core/server/process-metrics.ts).
    expect(bundle).not.toContain("node_modules/@opentelemetry/api/");
  },
  120_000,
);
