import { afterEach, expect, test } from "bun:test";
import type { ControllerManager } from "../runtime/mod.ts";
import { eventually, type TestCluster, testCluster } from "../runtime/testing.ts";
import { runControllers } from "../_test-manager.ts";
import { tokenCleaner } from "./token-cleaner.ts";
import { tokenSecret } from "./_token-fixtures.ts";

let cluster: TestCluster | undefined;
let manager: ControllerManager | undefined;
afterEach(async () => {
  await manager?.stop();
  await cluster?.close();
});

const secrets = () => cluster!.registry.store(cluster!.catalog.byGroupVersionResource("", "v1", "secrets")!);
const exists = (name: string) => secrets().get("kube-system", name).then(() => true, () => false);

test("expired token Secrets are deleted, and a token is deleted once its expiration passes", async () => {
  cluster = await testCluster();
  manager = await runControllers(cluster, [tokenCleaner]);
  const soon = new Date(Date.now() + 1500).toISOString().replace(/\.\d+Z$/, "Z");
  await secrets().create("kube-system", tokenSecret("expird", "0123456789abcdef", { expiration: "2020-01-01T00:00:00Z" }));
  await secrets().create("kube-system", tokenSecret("soonxx", "0123456789abcdef", { expiration: soon }));
  await secrets().create("kube-system", tokenSecret("foreva", "0123456789abcdef"));
  await secrets().create("kube-system", tokenSecret("future", "0123456789abcdef", { expiration: "2999-01-01T00:00:00Z" }));
  await eventually(async () => !(await exists("bootstrap-token-expird")));
  expect(await exists("bootstrap-token-soonxx")).toBe(true);
  await eventually(async () => !(await exists("bootstrap-token-soonxx")), 4000);
  expect([await exists("bootstrap-token-foreva"), await exists("bootstrap-token-future")]).toEqual([true, true]);
});
