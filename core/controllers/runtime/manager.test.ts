import { afterEach, expect, test } from "bun:test";
import { keyOf } from "./informer.ts";
import { enqueueChanges } from "./controller.ts";
import { ControllerManager } from "./manager.ts";
import { eventually, type TestCluster, testCluster } from "./testing.ts";

let cluster: TestCluster | undefined;
afterEach(() => cluster?.close());

test("a started controller reconciles changes through its queue and stops with the manager", async () => {
  cluster = await testCluster();
  const { registry, catalog, settings } = cluster;
  const reconciled: string[] = [];
  const manager = new ControllerManager(registry, catalog, {
    settings,
    enabled: (name) => name !== "disabled",
    controllers: [
      {
        name: "copier",
        async start(ctx) {
          const informer = await ctx.informer("", "v1", "configmaps");
          const queue = ctx.queue(async (key) => void reconciled.push(key));
          enqueueChanges(informer, queue, keyOf, ctx.signal);
        },
      },
      { name: "disabled", start: () => void reconciled.push("disabled started") },
    ],
  });
  const configmaps = registry.store(catalog.byGroupVersionResource("", "v1", "configmaps")!);
  await configmaps.create("default", { metadata: { name: "one" } });
  await manager.start();
  await eventually(() => reconciled.includes("default/one"));
  await configmaps.create("default", { metadata: { name: "two" } });
  await eventually(() => reconciled.includes("default/two"));
  await manager.stop();
  expect(manager.running).toBe(false);
  await configmaps.create("default", { metadata: { name: "three" } });
  await new Promise((resolve) => setTimeout(resolve, 30));
  expect(reconciled).toEqual(["default/one", "default/two"]);
});
