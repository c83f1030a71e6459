/**
 * The garbage collector's cost (issue 16): 1,000 owner ConfigMaps with 3 dependents each, all owners deleted at once
 * (background propagation); the time until every dependent is gone and the store reads it took, beside the same-run
 * lower bound of deleting the 3,000 dependents directly by name (one read each, as every delete reads its object).
 * In-process, on an in-memory store with the real registry. Not a test.
 * Run: node_modules/.bin/bun bench/gc.bench.ts [owners]
 */
import { controllerClient, startGarbageCollector } from "../core/controllers/mod.ts";
import { builtInCatalog } from "../core/registry/catalog.ts";
import { Registry } from "../core/registry/registry.ts";
import { openSqliteStorage } from "../core/storage/sqlite/mod.ts";
import type { Storage } from "../core/storage/storage.ts";

const OWNERS = Number(process.argv[2] ?? 1000);
const DEPENDENTS = 3;

interface Reads {
  /** Calls of get, range and count. */
  calls: number;
  /** Stored objects those calls returned. */
  objects: number;
}

/** `storage` with its reads counted. */
function countingReads(storage: Storage): { storage: Storage; reads: () => Reads } {
  const reads: Reads = { calls: 0, objects: 0 };
  const counted = Object.create(storage) as Storage;
  for (const method of ["currentRevision", "compactedRevision", "write", "eventsSince", "subscribe", "compact", "close"] as const) {
    // deno-lint-ignore no-explicit-any -- binding each method of the wrapped storage
    (counted as any)[method] = (storage as any)[method].bind(storage);
  }
  counted.get = async (...args) => {
    reads.calls++;
    const kv = await storage.get(...args);
    if (kv) reads.objects++;
    return kv;
  };
  counted.range = async (...args) => {
    reads.calls++;
    const result = await storage.range(...args);
    reads.objects += result.items.length;
    return result;
  };
  counted.count = (...args) => (reads.calls++, storage.count(...args));
  return { storage: counted, reads: () => ({ ...reads }) };
}

async function cluster() {
  const raw = openSqliteStorage(":memory:");
  const { storage, reads } = countingReads(raw);
  const registry = new Registry(storage);
  const catalog = builtInCatalog();
  const configMaps = registry.store(catalog.byKind("", "v1", "ConfigMap")!);
  const namespaces = registry.store(catalog.byKind("", "v1", "Namespace")!);
  await namespaces.create("", { apiVersion: "v1", kind: "Namespace", metadata: { name: "gc" } });
  const dependents: string[] = [];
  for (let i = 0; i < OWNERS; i++) {
    const owner = await configMaps.create("gc", { apiVersion: "v1", kind: "ConfigMap", metadata: { name: `owner-${i}` } });
    const ref = { apiVersion: "v1", kind: "ConfigMap", name: `owner-${i}`, uid: String(owner.metadata.uid) };
    for (let d = 0; d < DEPENDENTS; d++) {
      const name = `dependent-${i}-${d}`;
      await configMaps.create("gc", { apiVersion: "v1", kind: "ConfigMap", metadata: { name, ownerReferences: [ref] } });
      dependents.push(name);
    }
  }
  const left = () => raw.count("/core/configmaps/gc/");
  return { registry, catalog, configMaps, dependents, reads, left, close: () => raw.close() };
}

interface Cost {
  ms: number;
  reads: Reads;
}

const since = (before: Reads, after: Reads): Reads => ({ calls: after.calls - before.calls, objects: after.objects - before.objects });

async function collected(): Promise<Cost> {
  const { registry, catalog, configMaps, reads, left, close } = await cluster();
  const client = controllerClient(registry, catalog, { fieldManager: "generic-garbage-collector" });
  const collector = startGarbageCollector(registry, catalog, client);
  await collector.settled();
  const readsBefore = reads();
  const started = performance.now();
  for (let i = 0; i < OWNERS; i++) await configMaps.delete("gc", `owner-${i}`);
  while (await left() > 0) await Bun.sleep(1);
  const result = { ms: performance.now() - started, reads: since(readsBefore, reads()) };
  collector.stop();
  await close();
  return result;
}

async function lowerBound(): Promise<Cost> {
  const { configMaps, dependents, reads, close } = await cluster();
  const readsBefore = reads();
  const started = performance.now();
  for (let i = 0; i < OWNERS; i++) await configMaps.delete("gc", `owner-${i}`);
  for (const name of dependents) await configMaps.delete("gc", name);
  const result = { ms: performance.now() - started, reads: since(readsBefore, reads()) };
  await close();
  return result;
}

const gc = await collected();
const floor = await lowerBound();
const count = (n: number) => n.toLocaleString("en-US");
const row = (what: string, cost: Cost) =>
  `| ${what} | ${cost.ms.toFixed(0)} ms | ${count(cost.reads.calls)} | ${count(cost.reads.objects)} |`;
console.log(`| measure (${count(OWNERS)} owners × ${DEPENDENTS} dependents, all owners deleted) | time | store reads | objects read |`);
console.log("|---|---|---|---|");
console.log(row("garbage collector deletes the dependents", gc));
console.log(row("lower bound: the owners and dependents deleted directly by name", floor));
console.log(
  `| ratio | ${(gc.ms / floor.ms).toFixed(2)} | ${(gc.reads.calls / floor.reads.calls).toFixed(2)} | ${
    (gc.reads.objects / floor.reads.objects).toFixed(2)
  } |`,
);
