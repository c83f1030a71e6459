import { afterEach, expect, test } from "bun:test";
import { statusErrorOfAsync } from "../../api/testing.ts";
import type { KubeObject } from "../../api/types.ts";
import { type TestCluster, testCluster } from "../../controllers/runtime/testing.ts";
import { installServiceAllocation, type ServiceAllocation } from "./mod.ts";
import { offsetOf } from "./ip-range.ts";

let cluster: TestCluster | undefined;
let allocation: ServiceAllocation | undefined;
afterEach(async () => {
  allocation?.stop();
  await cluster?.close();
});

const service = (name: string, spec: Record<string, unknown> = {}): KubeObject => ({
  metadata: { name },
  spec: { ports: [{ port: 80 }], ...spec },
});

async function setUp() {
  cluster = await testCluster();
  const type = cluster.catalog.byGroupVersionResource("", "v1", "services")!;
  allocation = await installServiceAllocation(cluster.registry, cluster.storage, type, {
    clusterIPRange: "10.0.0.0/24",
    nodePortRange: "30000-32767",
  });
  return cluster.registry.store(type);
}

test("a new Service gets a cluster IP from the upper band, IPv4 single stack, and a NodePort service a node port", async () => {
  const services = await setUp();
  const created = await services.create("default", service("web", { type: "NodePort" }));
  const spec = created.spec as {
    clusterIP: string;
    clusterIPs: string[];
    ipFamilies: string[];
    ipFamilyPolicy: string;
    ports: { nodePort: number }[];
  };
  expect(offsetOf(allocation!.ipRange, spec.clusterIP)).toBeGreaterThanOrEqual(16);
  expect(spec.clusterIPs).toEqual([spec.clusterIP]);
  expect(spec.ipFamilies).toEqual(["IPv4"]);
  expect(spec.ipFamilyPolicy).toBe("SingleStack");
  expect(spec.ports[0]!.nodePort).toBeGreaterThanOrEqual(30000);
  expect(spec.ports[0]!.nodePort).toBeLessThanOrEqual(32767);
});

test("a requested IP that is taken is refused with kube's message, and is free again after the delete", async () => {
  const services = await setUp();
  await services.create("default", service("first", { clusterIP: "10.0.0.5" }));
  const error = await statusErrorOfAsync(services.create("default", service("second", { clusterIP: "10.0.0.5" })));
  expect(error.code).toBe(422);
  expect(error.message).toBe(
    'Service "second" is invalid: spec.clusterIPs: Invalid value: []string{"10.0.0.5"}: failed to allocate IP 10.0.0.5: provided IP is already allocated',
  );
  await services.delete("default", "first");
  const again = await services.create("default", service("second", { clusterIP: "10.0.0.5" }));
  expect((again.spec as { clusterIP: string }).clusterIP).toBe("10.0.0.5");
});

test("requested node ports outside the range or taken are refused", async () => {
  const services = await setUp();
  const outside = await statusErrorOfAsync(
    services.create("default", service("a", { type: "NodePort", ports: [{ port: 80, nodePort: 80 }] })),
  );
  expect(outside.message).toContain(
    "spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767",
  );
  await services.create("default", service("b", { type: "NodePort", ports: [{ port: 80, nodePort: 30080 }] }));
  const taken = await statusErrorOfAsync(
    services.create("default", service("c", { type: "NodePort", ports: [{ port: 80, nodePort: 30080 }] })),
  );
  expect(taken.message).toContain("spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated");
});

test("headless Services keep None, updates keep the allocated IP, and a failed dry run reserves nothing", async () => {
  const services = await setUp();
  const headless = await services.create("default", service("h", { clusterIP: "None" }));
  expect((headless.spec as { clusterIPs: string[] }).clusterIPs).toEqual(["None"]);
  const created = await services.create("default", service("u"));
  const ip = (created.spec as { clusterIP: string }).clusterIP;
  const { object } = await services.update("default", "u", (live) => ({ ...live!, spec: { ports: [{ port: 81 }] } }));
  expect((object.spec as { clusterIP: string }).clusterIP).toBe(ip);
  await services.create("default", service("dry", { clusterIP: "10.0.0.9" }), { dryRun: true });
  await services.create("default", service("real", { clusterIP: "10.0.0.9" }));
});

test("a restarted allocator learns the stored Services and does not hand their IPs out again", async () => {
  const services = await setUp();
  await services.create("default", service("kept", { clusterIP: "10.0.0.7" }));
  allocation!.stop();
  allocation = await installServiceAllocation(cluster!.registry, cluster!.storage, services.type, {
    clusterIPRange: "10.0.0.0/24",
    nodePortRange: "30000-32767",
  });
  const error = await statusErrorOfAsync(services.create("default", service("dup", { clusterIP: "10.0.0.7" })));
  expect(error.code).toBe(422);
});

test("a create that loses the race for its name gives back the IP it took (kube's REST.beginCreate finish: txn.Revert when the create fails)", async () => {
  const services = await setUp();
  const results = await Promise.allSettled([
    services.create("default", service("same", { clusterIP: "10.0.0.40" })),
    services.create("default", service("same", { clusterIP: "10.0.0.41" })),
  ]);
  expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
  const lost = results[0]!.status === "rejected" ? "10.0.0.40" : "10.0.0.41";
  const error = await statusErrorOfAsync(Promise.reject((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason));
  expect(error.code).toBe(409);
  const again = await services.create("default", service("other", { clusterIP: lost }));
  expect((again.spec as { clusterIP: string }).clusterIP).toBe(lost);
});
