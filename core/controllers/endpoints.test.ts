import { afterEach, expect, test } from "bun:test";
import type { KubeObject } from "../api/types.ts";
import { endpointsController } from "./endpoints.ts";
import type { ControllerManager } from "./runtime/mod.ts";
import { eventually, type TestCluster, testCluster } from "./runtime/testing.ts";
import { runControllers } from "./_test-manager.ts";
import { storePod, testPod } from "./_service-fixtures.ts";

let cluster: TestCluster | undefined;
let manager: ControllerManager | undefined;
afterEach(async () => {
  await manager?.stop();
  await cluster?.close();
});

const store = (r: string) => cluster!.registry.store(cluster!.catalog.byGroupVersionResource("", "v1", r)!);
const endpointsOf = (name: string) => store("endpoints").get("default", name).catch(() => undefined);
const ips = (endpoints: KubeObject | undefined, field: "addresses" | "notReadyAddresses") =>
  ((endpoints?.subsets ?? []) as Record<string, { ip: string }[]>[]).flatMap((subset) => (subset[field] ?? []).map((a) => a.ip));

async function start(): Promise<void> {
  cluster = await testCluster();
  manager = await runControllers(cluster, [endpointsController]);
}

function serviceBody(name: string, options: { withSelector: boolean } = { withSelector: true }): KubeObject {
  const spec = { ports: [{ name: "http", port: 80, targetPort: "http" }], ...(options.withSelector ? { selector: { app: "web" } } : {}) };
  return { apiVersion: "v1", kind: "Service", metadata: { name, labels: { tier: "front" } }, spec };
}

test("a Service with a selector gets Endpoints following its Pods' readiness, with the Service's labels", async () => {
  await start();
  const ports = [{ name: "http", containerPort: 8080 }];
  const ready = await storePod(store("pods"), testPod("ready", { ip: "10.1.0.5", ports, node: "n1" }));
  await storePod(store("pods"), testPod("starting", { ip: "10.1.0.6", ports, ready: false }));
  await storePod(store("pods"), testPod("other", { ip: "10.1.0.7", ports, labels: { app: "db" } }));
  await store("services").create("default", serviceBody("web"));
  const endpoints = await eventually(async () => ((await endpointsOf("web"))?.subsets ? endpointsOf("web") : undefined));
  expect(endpoints!.metadata.labels).toEqual({ tier: "front" });
  expect(endpoints!.metadata.annotations?.["endpoints.kubernetes.io/last-change-trigger-time"]).toBeString();
  expect(endpoints!.subsets).toEqual([{
    addresses: [{
      ip: "10.1.0.5",
      nodeName: "n1",
      targetRef: { kind: "Pod", namespace: "default", name: "ready", uid: String(ready.metadata.uid) },
    }],
    notReadyAddresses: [expect.objectContaining({ ip: "10.1.0.6" })],
    ports: [{ name: "http", port: 8080, protocol: "TCP" }],
  }]);
  await store("pods").update("default", "starting", (live) => ({ ...live!, status: testPod("starting", { ip: "10.1.0.6" }).status }), {
    subresource: "status",
  });
  await eventually(async () => ips(await endpointsOf("web"), "addresses").length === 2);
  await store("pods").delete("default", "ready", { gracePeriodSeconds: 0 });
  await eventually(async () => ips(await endpointsOf("web"), "addresses").join() === "10.1.0.6");
});

test("Endpoints go with their Service; a Service without selector keeps the Endpoints users write", async () => {
  await start();
  await store("services").create("default", serviceBody("web"));
  await eventually(() => endpointsOf("web"));
  await store("services").delete("default", "web");
  await eventually(async () => (await endpointsOf("web")) === undefined);
  await store("services").create("default", serviceBody("manual", { withSelector: false }));
  await store("endpoints").create("default", {
    metadata: { name: "manual" },
    subsets: [{ addresses: [{ ip: "192.0.2.1" }], ports: [{ port: 80 }] }],
  });
  await store("services").update(
    "default",
    "manual",
    (live) => ({ ...live!, metadata: { ...live!.metadata, labels: { changed: "yes" } } }),
  );
  await Bun.sleep(100);
  expect(ips(await endpointsOf("manual"), "addresses")).toEqual(["192.0.2.1"]);
});

test("Endpoints deleted by a user come back", async () => {
  await start();
  await store("services").create("default", serviceBody("web"));
  const first = await eventually(() => endpointsOf("web"));
  await store("endpoints").delete("default", "web");
  const second = await eventually(async () => {
    const again = await endpointsOf("web");
    return again && again.metadata.uid !== first!.metadata.uid ? again : undefined;
  });
  expect(second!.metadata.name).toBe("web");
});
