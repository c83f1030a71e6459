import { afterEach, expect, test } from "bun:test";
import type { KubeObject } from "../api/types.ts";
import { listObjects } from "../registry/list.ts";
import { endpointSliceController } from "./endpointslices.ts";
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

const store = (g: string, r: string) => cluster!.registry.store(cluster!.catalog.byGroupVersionResource(g, "v1", r)!);
const slicesOf = async (service: string) =>
  (await listObjects(store("discovery.k8s.io", "endpointslices"), { namespace: "default", revision: 0, limit: 0 })).list.items.filter((s) =>
    s.metadata.labels?.["kubernetes.io/service-name"] === service
  );
const endpointNames = (slices: KubeObject[]) =>
  slices.flatMap((s) => ((s.endpoints ?? []) as { targetRef: { name: string } }[]).map((e) => e.targetRef.name)).sort();

async function start(): Promise<KubeObject> {
  cluster = await testCluster();
  manager = await runControllers(cluster, [endpointSliceController]);
  return store("", "services").create("default", {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "web", labels: { tier: "front" } },
    spec: { selector: { app: "web" }, ports: [{ name: "http", port: 80, targetPort: 8080 }] },
  });
}

test("a Service's EndpointSlice lists its Pods with conditions, labels, owner and kube's naming", async () => {
  const service = await start();
  await storePod(store("", "pods"), testPod("a", { ip: "10.1.0.1", node: "n1" }));
  await storePod(store("", "pods"), testPod("b", { ip: "10.1.0.2", ready: false }));
  const [slice] = await eventually(async () => {
    const slices = await slicesOf("web");
    return endpointNames(slices).join() === "a,b" ? slices : undefined;
  });
  expect(slice!.metadata.name).toStartWith("web-");
  expect(slice!.metadata.labels).toEqual({
    tier: "front",
    "kubernetes.io/service-name": "web",
    "endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io",
  });
  expect(slice!.metadata.ownerReferences).toEqual([{
    apiVersion: "v1",
    kind: "Service",
    name: "web",
    uid: String(service.metadata.uid),
    controller: true,
    blockOwnerDeletion: true,
  }]);
  expect(slice!.addressType).toBe("IPv4");
  expect(slice!.ports).toEqual([{ name: "http", port: 8080, protocol: "TCP" }]);
  expect(slice!.endpoints).toEqual([
    expect.objectContaining({ addresses: ["10.1.0.1"], conditions: { ready: true, serving: true, terminating: false }, nodeName: "n1" }),
    expect.objectContaining({ addresses: ["10.1.0.2"], conditions: { ready: false, serving: false, terminating: false } }),
  ]);
});

test("a Service without Pods has one placeholder slice, and its slices go with it", async () => {
  await start();
  const [placeholder] = await eventually(async () => {
    const slices = await slicesOf("web");
    return slices.length === 1 ? slices : undefined;
  });
  expect({ endpoints: placeholder!.endpoints, ports: placeholder!.ports }).toEqual({ endpoints: [], ports: [] });
  await store("", "services").delete("default", "web");
  await eventually(async () => (await slicesOf("web")).length === 0);
});

test("more than 100 endpoints are split over slices of at most 100", async () => {
  await start();
  for (let i = 1; i <= 105; i++) await storePod(store("", "pods"), testPod(`p${i}`, { ip: `10.1.${Math.floor(i / 250)}.${i % 250}` }));
  const slices = await eventually(async () => {
    const found = await slicesOf("web");
    return endpointNames(found).length === 105 ? found : undefined;
  }, 10_000);
  expect(slices.map((s) => (s.endpoints as unknown[]).length).sort((a, b) => a - b)).toEqual([5, 100]);
});
