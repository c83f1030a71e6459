import { afterEach, expect, test } from "bun:test";
import { Buffer } from "node:buffer";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { statusErrorOfAsync } from "../../api/testing.ts";
import type { KubeObject } from "../../api/types.ts";
import { ensureSystemNamespaces } from "../../controllers/mod.ts";
import { openSqliteStorage } from "../../storage/sqlite/mod.ts";
import type { Storage } from "../../storage/storage.ts";
import { builtInCatalog } from "../catalog.ts";
import { collectionPrefix } from "../keys.ts";
import { Registry } from "../registry.ts";
import { installServiceAllocation, type ServiceAllocation } from "./mod.ts";
import { AllocationRepair, REPAIRS_BEFORE_LEAK_CLEANUP } from "./repair.ts";
import { claimOffsets, decodeRangeAllocation, releaseOffsets } from "./range-allocation.ts";
import { allocationRanges } from "./releases.ts";
import { parsePortRange, parseServiceCIDR } from "./ip-range.ts";

// Two "processes": two storages on one SQLite file, each with its own registry and allocator.
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const catalog = builtInCatalog();
const servicesType = catalog.byGroupVersionResource("", "v1", "services")!;
const service = (name: string, spec: Record<string, unknown> = {}): KubeObject => ({
  metadata: { name },
  spec: { ports: [{ port: 80 }], ...spec },
});
const ranges = { clusterIPRange: "10.0.0.0/16", nodePortRange: "30000-32767" };

async function openProcess(path: string) {
  const storage = openSqliteStorage(path);
  const registry = new Registry(storage);
  await ensureSystemNamespaces(registry, catalog).catch(() => undefined);
  const allocation: ServiceAllocation = await installServiceAllocation(registry, storage, servicesType, ranges);
  cleanups.push(() => storage.close(), () => allocation.stop());
  return { storage, services: registry.store(servicesType) };
}

async function twoProcesses() {
  const dir = await mkdtemp(join(tmpdir(), "kubun-alloc-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, "store.db");
  const first = await openProcess(path);
  return [first, await openProcess(path)] as const;
}

const stored = allocationRanges(parseServiceCIDR(ranges.clusterIPRange), parsePortRange(ranges.nodePortRange));
/** The values the stored range allocations hold. */
async function allocated(storage: Storage): Promise<string[]> {
  const ips = decodeRangeAllocation(stored.ips.spec, await storage.get(stored.ips.key))!;
  const ports = decodeRangeAllocation(stored.ports.spec, await storage.get(stored.ports.key))!;
  return [...[...ips.offsets()].map(stored.ipAt), ...[...ports.offsets()].map((offset) => String(stored.portAt(offset)))];
}

test("the same requested IP asked of two processes at once is given to exactly one", async () => {
  const [a, b] = await twoProcesses();
  const results = await Promise.allSettled([
    a.services.create("default", service("from-a", { clusterIP: "10.0.0.5" })),
    b.services.create("default", service("from-b", { clusterIP: "10.0.0.5" })),
  ]);
  expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
  expect(refused.reason.message).toContain(
    'spec.clusterIPs: Invalid value: []string{"10.0.0.5"}: failed to allocate IP 10.0.0.5: provided IP is already allocated',
  );
});

test("the same requested node port asked of two processes at once is given to exactly one", async () => {
  const [a, b] = await twoProcesses();
  const nodePort = (name: string) => service(name, { type: "NodePort", ports: [{ port: 80, nodePort: 30080 }] });
  const results = await Promise.allSettled([
    a.services.create("default", nodePort("from-a")),
    b.services.create("default", nodePort("from-b")),
  ]);
  expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
  expect(refused.reason.message).toContain("spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated");
});

test("random IPs and node ports handed out by two processes at once never collide", async () => {
  const [a, b] = await twoProcesses();
  // 200 of a /24's 254 addresses: picks collide often, so lost claims must be retried with another address.
  const small = await Promise.all([a, b].map(async ({ storage }) => {
    const registry = new Registry(storage);
    await installServiceAllocation(registry, storage, servicesType, { clusterIPRange: "10.1.0.0/24", nodePortRange: "30000-30249" }).then((
      allocation,
    ) => cleanups.push(() => allocation.stop()));
    return registry.store(servicesType);
  }));
  const created = await Promise.all(
    Array.from({ length: 200 }, (_, i) => small[i % 2]!.create("default", service(`s${i}`, { type: "NodePort" }))),
  );
  const ips = created.map((s) => (s.spec as { clusterIP: string }).clusterIP);
  const ports = created.map((s) => (s.spec as { ports: { nodePort: number }[] }).ports[0]!.nodePort);
  expect(new Set(ips).size).toBe(200);
  expect(new Set(ports).size).toBe(200);
});

test("the allocations are kube's RangeAllocations: the range's text and big.Int.Bytes() of the taken offsets (allocator/storage Etcd)", async () => {
  const [a] = await twoProcesses();
  await a.services.create("default", service("web", { clusterIP: "10.0.0.9", type: "NodePort", ports: [{ port: 80, nodePort: 30003 }] }));
  // 10.0.0.9 is offset 8 from the first usable address 10.0.0.1: 2^8 = 0x0100. Port 30003 is offset 3: 0x08.
  expect(JSON.parse((await a.storage.get("/_ranges/serviceips"))!.value)).toEqual({
    kind: "RangeAllocation",
    apiVersion: "v1",
    metadata: { creationTimestamp: null },
    range: "10.0.0.0/16",
    data: Buffer.from([0x01, 0x00]).toString("base64"),
  });
  expect(JSON.parse((await a.storage.get("/_ranges/servicenodeports"))!.value)).toMatchObject({
    range: "30000-32767",
    data: Buffer.from([0x08]).toString("base64"),
  });
});

test("deleting a Service or dropping its node ports frees them in the stored allocations", async () => {
  const [a] = await twoProcesses();
  await a.services.create("default", service("gone", { clusterIP: "10.0.0.9", type: "NodePort", ports: [{ port: 80, nodePort: 30090 }] }));
  expect(await allocated(a.storage)).toEqual(expect.arrayContaining(["10.0.0.9", "30090"]));
  await a.services.update(
    "default",
    "gone",
    (live) => ({ ...live!, spec: { type: "ClusterIP", clusterIP: "10.0.0.9", ports: [{ port: 80 }] } }),
  );
  await Bun.sleep(50);
  expect(await allocated(a.storage)).toContain("10.0.0.9");
  expect(await allocated(a.storage)).not.toContain("30090");
  await a.services.delete("default", "gone");
  await Bun.sleep(50);
  expect(await allocated(a.storage)).not.toContain("10.0.0.9");
});

test("a late release of a value another Service has taken again since leaves it taken (every server frees what commits give up)", async () => {
  const [a] = await twoProcesses();
  const first = await claimOffsets(a.storage, stored.ips, [40]);
  await releaseOffsets(a.storage, stored.ips, [40], first.revision!);
  expect(await allocated(a.storage)).not.toContain(stored.ipAt(40));
  await claimOffsets(a.storage, stored.ips, [40]);
  // Another server following the same commit frees the value late.
  await releaseOffsets(a.storage, stored.ips, [40], first.revision!);
  expect(await allocated(a.storage)).toContain(stored.ipAt(40));
});

test("a dry run takes nothing but is refused an IP another process holds", async () => {
  const [a, b] = await twoProcesses();
  await a.services.create("default", service("dry", { clusterIP: "10.0.0.11" }), { dryRun: true });
  expect(await allocated(a.storage)).not.toContain("10.0.0.11");
  await a.services.create("default", service("real", { clusterIP: "10.0.0.12" }));
  const error = await statusErrorOfAsync(b.services.create("default", service("dry", { clusterIP: "10.0.0.12" }), { dryRun: true }));
  expect(error.code).toBe(422);
});

test("the repair pass takes a stored Service's missing value at once and frees a leaked one on its third pass in a row (Repair.runOnce)", async () => {
  const [a] = await twoProcesses();
  await a.services.create("default", service("kept", { clusterIP: "10.0.0.20" }));
  const kept = stored.ipOffset("10.0.0.20");
  await releaseOffsets(a.storage, stored.ips, [kept], a.storage.currentRevision());
  await claimOffsets(a.storage, stored.ips, [stored.ipOffset("10.0.0.21")]);
  const repair = new AllocationRepair(a.storage, stored, collectionPrefix(servicesType, ""));
  expect(await repair.runOnce()).toEqual({ added: ["10.0.0.20"], removed: [] });
  for (let pass = 2; pass < REPAIRS_BEFORE_LEAK_CLEANUP; pass++) expect(await repair.runOnce()).toEqual({ added: [], removed: [] });
  expect(await allocated(a.storage)).toContain("10.0.0.21");
  expect(await repair.runOnce()).toEqual({ added: [], removed: ["10.0.0.21"] });
  expect(await allocated(a.storage)).toEqual(expect.arrayContaining(["10.0.0.20"]));
  expect(await allocated(a.storage)).not.toContain("10.0.0.21");
});

test("with no write in flight (a start on a store no other process writes), the repair pass frees leaked IPs and node ports at once", async () => {
  const [a] = await twoProcesses();
  await a.services.create("default", service("kept", { clusterIP: "10.0.0.22", type: "NodePort", ports: [{ port: 80, nodePort: 31022 }] }));
  await claimOffsets(a.storage, stored.ips, [stored.ipOffset("10.0.0.23")]);
  await claimOffsets(a.storage, stored.ports, [stored.portOffset(31023)]);
  const repair = new AllocationRepair(a.storage, stored, collectionPrefix(servicesType, ""));
  expect(await repair.runOnce({ noWritesInFlight: true })).toEqual({ added: [], removed: ["10.0.0.23", "31023"] });
  expect(await allocated(a.storage)).toEqual(expect.arrayContaining(["10.0.0.22", "31022"]));
  expect(await allocated(a.storage)).not.toEqual(expect.arrayContaining(["10.0.0.23"]));
  expect(await allocated(a.storage)).not.toEqual(expect.arrayContaining(["31023"]));
});

test("the repair pass replaces the reservation keys of the earlier layout", async () => {
  const [a] = await twoProcesses();
  await a.storage.write({ op: "create", key: "/_allocations/clusterips/10.0.0.30", value: "{}" });
  await new AllocationRepair(a.storage, stored, collectionPrefix(servicesType, "")).runOnce();
  expect((await a.storage.range("/_allocations/")).items).toEqual([]);
});

test("creating a Service that exists again is 409 AlreadyExists, not a clash with its own reserved IP", async () => {
  const [a] = await twoProcesses();
  await a.services.create("default", service("twice", { clusterIP: "10.0.0.30" }));
  const error = await statusErrorOfAsync(a.services.create("default", service("twice", { clusterIP: "10.0.0.30" })));
  expect(error.code).toBe(409);
});
