/** Endpoints and EndpointSlices of a Service follow its Pods' IPs and readiness, read with the real kubectl. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import type { Json } from "./_api.ts";
import { kubectlUntil, lines } from "./_workloads.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

/** What a node agent reports for a started Pod. */
async function reportPod(name: string, ip: string, ready: boolean): Promise<void> {
  const status = { phase: "Running", podIP: ip, podIPs: [{ ip }], conditions: [{ type: "Ready", status: ready ? "True" : "False" }] };
  const patched = await server.kubectl(["patch", "pod", name, "--subresource=status", "--type=merge", "-p", JSON.stringify({ status })]);
  expect(patched.stderr).toBe("");
}

async function runPod(name: string, ip: string, ready: boolean): Promise<void> {
  expect((await server.kubectl(["run", name, "--image=nginx", "--labels=app=web", "--port=8080"])).code).toBe(0);
  await reportPod(name, ip, ready);
}

const json = (args: string[], done: (value: Json) => boolean) =>
  kubectlUntil(server, [...args, "-o", "json"], (out) => done(JSON.parse(out))).then(JSON.parse);

test("a Service's Endpoints list ready Pods in addresses and others in notReadyAddresses", async () => {
  await runPod("web-1", "10.244.0.11", true);
  await runPod("web-2", "10.244.0.12", false);
  const service = {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "web" },
    spec: { selector: { app: "web" }, ports: [{ name: "http", port: 80, targetPort: 8080 }] },
  };
  expect((await server.kubectl(["create", "-f", "-"], { stdin: JSON.stringify(service) })).code).toBe(0);
  const endpoints = await json(["get", "endpoints", "web"], (ep) => (ep.subsets?.[0]?.notReadyAddresses ?? []).length === 1);
  expect(endpoints.subsets).toEqual([{
    addresses: [{ ip: "10.244.0.11", targetRef: expect.objectContaining({ kind: "Pod", name: "web-1", namespace: "default" }) }],
    notReadyAddresses: [{ ip: "10.244.0.12", targetRef: expect.objectContaining({ kind: "Pod", name: "web-2", namespace: "default" }) }],
    ports: [{ name: "http", port: 8080, protocol: "TCP" }],
  }]);
  expect(endpoints.metadata.annotations["endpoints.kubernetes.io/last-change-trigger-time"]).toMatch(/^\d{4}-\d\d-\d\dT/);
  await reportPod("web-2", "10.244.0.12", true);
  await kubectlUntil(server, ["get", "endpoints", "web"], (out) => out.includes("10.244.0.11:8080,10.244.0.12:8080"));
});

test("the Service's EndpointSlice lists the Pods with conditions, kube's labels and the Service as owner", async () => {
  const slices = await json(
    ["get", "endpointslices", "-l", "kubernetes.io/service-name=web"],
    (list) => list.items.length === 1 && list.items[0].endpoints?.every((e: Json) => e.conditions.ready),
  );
  const [slice] = slices.items;
  expect(slice.metadata.generateName).toBe("web-");
  expect(slice.metadata.labels["endpointslice.kubernetes.io/managed-by"]).toBe("endpointslice-controller.k8s.io");
  expect(slice.metadata.ownerReferences).toEqual([
    expect.objectContaining({ kind: "Service", name: "web", controller: true, blockOwnerDeletion: true }),
  ]);
  expect(slice.addressType).toBe("IPv4");
  expect(slice.ports).toEqual([{ name: "http", port: 8080, protocol: "TCP" }]);
  expect(slice.endpoints.map((e: Json) => [e.addresses, e.targetRef.name, e.conditions])).toEqual([
    [["10.244.0.11"], "web-1", { ready: true, serving: true, terminating: false }],
    [["10.244.0.12"], "web-2", { ready: true, serving: true, terminating: false }],
  ]);
  const table = await server.kubectl(["get", "endpointslices", "-l", "kubernetes.io/service-name=web"]);
  expect(table.stdout).toContain("10.244.0.11,10.244.0.12");
});

test("a deleted Pod leaves the endpoints, and the Service's deletion takes its Endpoints and slices", async () => {
  await server.kubectl(["delete", "pod", "web-1", "--grace-period=0", "--force"]);
  await kubectlUntil(server, ["get", "endpoints", "web", "-o", "jsonpath={.subsets[*].addresses[*].ip}"], (out) => out === "10.244.0.12");
  expect((await server.kubectl(["delete", "service", "web"])).code).toBe(0);
  await kubectlUntil(server, ["get", "endpoints", "-o", "name"], (out) => !lines(out).includes("endpoints/web"));
  await kubectlUntil(server, ["get", "endpointslices", "-l", "kubernetes.io/service-name=web", "-o", "name"], (out) => out.trim() === "");
});

test("a Service without selector keeps the Endpoints its user writes", async () => {
  const manual = { apiVersion: "v1", kind: "Service", metadata: { name: "external" }, spec: { ports: [{ port: 5432 }] } };
  const endpoints = {
    apiVersion: "v1",
    kind: "Endpoints",
    metadata: { name: "external" },
    subsets: [{ addresses: [{ ip: "192.0.2.10" }], ports: [{ port: 5432 }] }],
  };
  expect((await server.kubectl(["create", "-f", "-"], { stdin: [manual, endpoints].map((o) => JSON.stringify(o)).join("\n") })).code).toBe(
    0,
  );
  await Bun.sleep(300);
  const kept = await server.kubectl(["get", "endpoints", "external", "-o", "jsonpath={.subsets[0].addresses[0].ip}"]);
  expect(kept.stdout).toBe("192.0.2.10");
  const slices = await server.kubectl(["get", "endpointslices", "-l", "kubernetes.io/service-name=external", "-o", "name"]);
  expect(slices.stdout.trim()).toBe("");
});

test("Endpoints without a Service stay when their user changes them: kube's NewEndpointController follows only Endpoints deletions", async () => {
  const lonely = { apiVersion: "v1", kind: "Endpoints", metadata: { name: "lonely" }, subsets: [{ addresses: [{ ip: "192.0.2.20" }] }] };
  expect((await server.kubectl(["create", "-f", "-"], { stdin: JSON.stringify(lonely) })).code).toBe(0);
  expect((await server.kubectl(["label", "endpoints", "lonely", "changed=yes"])).code).toBe(0);
  // A Service made after the change is synced after it: once its Endpoints exist, the change has been seen.
  expect((await server.kubectl(["create", "service", "clusterip", "after-change", "--tcp=80:80"])).code).toBe(0);
  await kubectlUntil(server, ["get", "endpoints", "-o", "name"], (out) => lines(out).includes("endpoints/after-change"));
  const kept = await server.kubectl(["get", "endpoints", "lonely", "-o", "jsonpath={.metadata.labels.changed}"]);
  expect({ stdout: kept.stdout, stderr: kept.stderr }).toEqual({ stdout: "yes", stderr: "" });
});
