import { expect, test } from "bun:test";
import { componentChecks, storageCheck } from "./component-statuses.ts";

const healthyStorage = storageCheck(() => Promise.resolve());

test("serversToValidate: controller-manager, scheduler and etcd-0; components this process runs answer their healthz 'ok'", async () => {
  const checks = componentChecks(["*"], healthyStorage);
  expect([...checks.keys()]).toEqual(["controller-manager", "scheduler", "etcd-0"]);
  for (const check of checks.values()) expect(await check()).toEqual({ healthy: true, message: "ok", error: "" });
});

test("EtcdServer.DoServerCheck: a failed storage probe is unhealthy with no message and the probe's error", async () => {
  const failing = storageCheck(() => Promise.reject(new Error("error getting data from etcd: database is locked")));
  expect(await failing()).toEqual({ healthy: false, message: "", error: "error getting data from etcd: database is locked" });
});
