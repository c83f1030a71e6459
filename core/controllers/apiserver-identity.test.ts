import { expect, test } from "bun:test";
import { builtInCatalog } from "../registry/catalog.ts";
import { Registry } from "../registry/registry.ts";
import { openSqliteStorage } from "../storage/sqlite/mod.ts";
import { apiServerId, startApiServerIdentity } from "./apiserver-identity.ts";
import { ensureSystemNamespaces } from "./bootstrap-namespaces.ts";

test("APIServerID: kube-apiserver- and the lower-case unpadded base32 of sha256(hostname)'s first 16 bytes", () => {
  expect(apiServerId("node-1")).toBe("kube-apiserver-gwlrxzxjxmbevckvql7a4qxaja");
});

test("the lease controller creates the labelled identity Lease, renews it, and apiserverleasegc deletes expired ones", async () => {
  const storage = openSqliteStorage(":memory:");
  const registry = new Registry(storage);
  const catalog = builtInCatalog();
  await ensureSystemNamespaces(registry, catalog);
  const leases = registry.store(catalog.byGroupVersionResource("coordination.k8s.io", "v1", "leases")!);
  let clock = new Date("2026-01-01T00:00:00Z");
  const identity = startApiServerIdentity(registry, catalog, { hostname: "node-1", log: () => {}, now: () => clock });
  try {
    await identity.renew();
    const lease = await leases.get("kube-system", "kube-apiserver-gwlrxzxjxmbevckvql7a4qxaja");
    expect(lease.metadata.labels).toEqual({ "apiserver.kubernetes.io/identity": "kube-apiserver", "kubernetes.io/hostname": "node-1" });
    expect(lease.spec).toMatchObject({ leaseDurationSeconds: 3600, renewTime: "2026-01-01T00:00:00.000000Z" });
    expect(String((lease.spec as { holderIdentity: string }).holderIdentity)).toMatch(
      /^kube-apiserver-gwlrxzxjxmbevckvql7a4qxaja_[0-9a-f-]{36}$/,
    );

    await leases.create("kube-system", {
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: "kube-apiserver-gone", labels: { "apiserver.kubernetes.io/identity": "kube-apiserver" } },
      spec: { holderIdentity: "gone", leaseDurationSeconds: 3600, renewTime: "2026-01-01T00:00:00.000000Z" },
    });
    clock = new Date("2026-01-01T01:30:00Z");
    await identity.renew();
    await identity.collect();
    const names = (await storage.range("/coordination.k8s.io/leases/kube-system/")).items.map((kv) => kv.key.split("/").at(-1));
    expect(names).toEqual(["kube-apiserver-gwlrxzxjxmbevckvql7a4qxaja"]);
    const renewed = await leases.get("kube-system", "kube-apiserver-gwlrxzxjxmbevckvql7a4qxaja");
    expect((renewed.spec as { renewTime: string }).renewTime).toBe("2026-01-01T01:30:00.000000Z");
  } finally {
    identity.stop();
    await storage.close();
  }
});
