import { afterEach, beforeEach, expect, test } from "bun:test";
import type { KubeObject } from "../api/types.ts";
import { eventually } from "../controllers/runtime/testing.ts";
import { builtInCatalog } from "../registry/catalog.ts";
import { Registry } from "../registry/registry.ts";
import type { ResourceStore } from "../registry/store.ts";
import { openSqliteStorage } from "../storage/sqlite/mod.ts";
import { type RacingStorage, racingStorage } from "../storage/testing.ts";
import { Aggregator } from "./aggregator.ts";
import { conditionsOf } from "./service-reference.ts";

const NAME = "v1.wardle.example.com";
const REMOTE: KubeObject = {
  apiVersion: "apiregistration.k8s.io/v1",
  kind: "APIService",
  metadata: { name: NAME },
  spec: {
    group: "wardle.example.com",
    version: "v1",
    groupPriorityMinimum: 1000,
    versionPriority: 15,
    service: { namespace: "ns", name: "api", port: 443 },
    insecureSkipTLSVerify: true,
  },
};

let storage: RacingStorage;
let registry: Registry;
let aggregator: Aggregator;
let apiServices: ResourceStore;

beforeEach(async () => {
  storage = racingStorage(openSqliteStorage(":memory:"));
  registry = new Registry(storage);
  const catalog = builtInCatalog();
  apiServices = registry.store(catalog.byGroupVersionResource("apiregistration.k8s.io", "v1", "apiservices")!);
  aggregator = await Aggregator.start(registry, catalog, {
    proxyClient: { certPem: "", keyPem: "" },
    probe: () => Promise.resolve(),
    resyncMs: 60_000,
  });
});
afterEach(async () => {
  aggregator.stop();
  await storage.close();
});

const availableMessage = (apiService: KubeObject) => conditionsOf(apiService).find((c) => c.type === "Available")?.message;

test("an APIService changed between the availability check and its status write is checked again, not stamped with the stale result (updateAPIServiceStatus, AddRateLimited)", async () => {
  const key = apiServices.key("", NAME);
  // Another writer points the APIService at another Service just before the first status write.
  storage.raceNextUpdate(key, () =>
    apiServices.update("", NAME, (live) => ({
      ...live!,
      spec: { ...live!.spec as object, service: { namespace: "ns", name: "other", port: 443 } },
    })));
  const from = storage.currentRevision();
  await apiServices.create("", structuredClone(REMOTE));
  const message = await eventually(async () => {
    const text = availableMessage(await apiServices.get("", NAME));
    return text?.includes("other") && text;
  });
  expect(message).toBe('service/other in "ns" is not present');
  // No stored version pairs the new Service with the condition found for the old one.
  const versions = await Promise.all((await storage.eventsSince(key, from)).map((event) => apiServices.decode(event.kv)));
  const stale = versions.filter((v) =>
    (v.spec as { service: { name: string } }).service.name === "other" && availableMessage(v)?.includes("service/api")
  );
  expect(stale).toEqual([]);
  expect(storage.updatesOf(key)).toBe(3);
});
