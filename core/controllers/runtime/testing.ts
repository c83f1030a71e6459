/** Test helpers for controllers: an in-memory registry with the system namespaces, and polling until a condition holds. */
import { builtInCatalog, type Catalog } from "../../registry/catalog.ts";
import { Registry } from "../../registry/registry.ts";
import { openSqliteStorage } from "../../storage/sqlite/mod.ts";
import type { Storage } from "../../storage/storage.ts";
import { ensureSystemNamespaces } from "../bootstrap-namespaces.ts";
import type { ControllerSettings } from "./controller.ts";
import { parseFlags } from "../../server/flags.ts";

export interface TestCluster {
  registry: Registry;
  /** The registry's storage, for wiring only the server does (service allocation); controllers never see it. */
  storage: Storage;
  catalog: Catalog;
  settings: ControllerSettings;
  close(): Promise<void>;
}

export async function testCluster(
  settings: Partial<ControllerSettings> = {},
  storage: Storage = openSqliteStorage(":memory:"),
): Promise<TestCluster> {
  const registry = new Registry(storage);
  const catalog = builtInCatalog();
  await ensureSystemNamespaces(registry, catalog);
  return {
    registry,
    storage,
    catalog,
    settings: {
      config: parseFlags([]),
      caPem: "-----BEGIN CERTIFICATE-----\nTEST\n-----END CERTIFICATE-----\n",
      serverUrl: "https://127.0.0.1:6443",
      ...settings,
    },
    close: () => storage.close(),
  };
}

/** Polls `probe` until it returns something other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms${lastError ? `: ${String(lastError)}` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
