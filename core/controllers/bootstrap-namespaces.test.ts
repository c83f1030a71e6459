import { expect, test } from "bun:test";
import { builtInCatalog } from "../registry/catalog.ts";
import { Registry } from "../registry/registry.ts";
import { openSqliteStorage } from "../storage/sqlite/mod.ts";
import { ensureSystemNamespaces, SYSTEM_NAMESPACES } from "./bootstrap-namespaces.ts";

test("ensureSystemNamespaces() creates the system namespaces and, at a restart, leaves them as they are (kube's createNamespaceIfNeeded)", async () => {
  const storage = openSqliteStorage(":memory:");
  try {
    const registry = new Registry(storage);
    const catalog = builtInCatalog();
    const namespaces = registry.store(catalog.byGroupVersionResource("", "v1", "namespaces")!);
    await ensureSystemNamespaces(registry, catalog);
    for (const name of SYSTEM_NAMESPACES) expect((await namespaces.get("", name)).metadata.name).toBe(name);
    const labelled = await namespaces.update("", "kube-public", (ns) => ({ ...ns!, metadata: { ...ns!.metadata, labels: { team: "a" } } }));
    await ensureSystemNamespaces(registry, catalog);
    expect(await namespaces.get("", "kube-public")).toEqual(labelled.object);
  } finally {
    await storage.close();
  }
});
