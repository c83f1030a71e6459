import { afterEach, expect, test } from "bun:test";
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
import { repairReservations } from "./repair.ts";
import { ipReservationKey, portReservationKey, RESERVATIONS_PREFIX } from "./reservation-keys.ts";

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

const reservationKeys = async (storage: Storage) => (await storage.range(RESERVATIONS_PREFIX)).items.map((kv) => kv.key);

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

test("deleting a Service or dropping its node ports removes their reservation keys", async () => {
  const [a] = await twoProcesses();
  await a.services.create("default", service("gone", { clusterIP: "10.0.0.9", type: "NodePort", ports: [{ port: 80, nodePort: 30090 }] }));
  expect(await reservationKeys(a.storage)).toContain(portReservationKey(30090));
  await a.services.update(
    "default",
    "gone",
    (live) => ({ ...live!, spec: { type: "ClusterIP", clusterIP: "10.0.0.9", ports: [{ port: 80 }] } }),
  );
  await Bun.sleep(20);
  expect(await reservationKeys(a.storage)).toEqual(expect.arrayContaining([ipReservationKey("10.0.0.9")]));
  expect(await reservationKeys(a.storage)).not.toContain(portReservationKey(30090));
  await a.services.delete("default", "gone");
  await Bun.sleep(20);
  expect(await reservationKeys(a.storage)).not.toContain(ipReservationKey("10.0.0.9"));
});

test("a dry run writes no reservation key but is refused an IP another process holds", async () => {
  const [a, b] = await twoProcesses();
  await a.services.create("default", service("dry", { clusterIP: "10.0.0.11" }), { dryRun: true });
  expect(await reservationKeys(a.storage)).not.toContain(ipReservationKey("10.0.0.11"));
  await a.services.create("default", service("real", { clusterIP: "10.0.0.12" }));
  const error = await statusErrorOfAsync(b.services.create("default", service("dry", { clusterIP: "10.0.0.12" }), { dryRun: true }));
  expect(error.code).toBe(422);
});

test("the repair pass removes a key no Service owns and adds the missing key of a stored Service", async () => {
  const [a] = await twoProcesses();
  await a.services.create("default", service("kept", { clusterIP: "10.0.0.20" }));
  await a.storage.write({ op: "delete", key: ipReservationKey("10.0.0.20"), expectedRevision: 0 });
  await a.storage.write({
    op: "create",
    key: ipReservationKey("10.0.0.21"),
    value: JSON.stringify({ namespace: "default", name: "crashed", uid: "u-1", reservedAt: 0 }),
  });
  const result = await repairReservations(a.storage, collectionPrefix(servicesType, ""), { graceMs: 1000 });
  expect(result).toEqual({ removed: [ipReservationKey("10.0.0.21")], added: [ipReservationKey("10.0.0.20")] });
  expect(await reservationKeys(a.storage)).toContain(ipReservationKey("10.0.0.20"));
  expect(await reservationKeys(a.storage)).not.toContain(ipReservationKey("10.0.0.21"));
});

test("the repair pass leaves a young key alone, since its Service write may still be in flight", async () => {
  const [a] = await twoProcesses();
  await a.storage.write({
    op: "create",
    key: ipReservationKey("10.0.0.22"),
    value: JSON.stringify({ namespace: "default", name: "soon", uid: "u-2", reservedAt: Date.now() }),
  });
  const result = await repairReservations(a.storage, collectionPrefix(servicesType, ""), { graceMs: 60_000 });
  expect(result.removed).toEqual([]);
});

test("creating a Service that exists again is 409 AlreadyExists, not a clash with its own reserved IP", async () => {
  const [a] = await twoProcesses();
  await a.services.create("default", service("twice", { clusterIP: "10.0.0.30" }));
  const error = await statusErrorOfAsync(a.services.create("default", service("twice", { clusterIP: "10.0.0.30" })));
  expect(error.code).toBe(409);
});
