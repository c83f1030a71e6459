/**
 * Service ClusterIPs and NodePorts (spec 2.12): the upper band for dynamic IPs, requested-IP conflicts, release on
 * delete, allocations kept across a crash; and kube-apiserver's own `kubernetes` Service and Endpoints.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { expectStatus, getJson, sendJson } from "./_api.ts";

let server: TestServer;
const SERVICES = "/api/v1/namespaces/default/services";

beforeAll(async () => {
  // A /24: 254 addresses, the lowest 16 offsets are the band for requested IPs.
  server = await startServer(["--service-cluster-ip-range=10.0.0.0/24"]);
});

afterAll(async () => {
  await server?.stop();
});

function service(name: string, spec: Record<string, unknown> = {}) {
  return { apiVersion: "v1", kind: "Service", metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } };
}

const lastOctet = (ip: string) => Number(ip.split(".")[3]);

test("dynamic ClusterIPs come from the upper band and NodePorts from 30000-32767", async () => {
  for (const name of ["dyn-a", "dyn-b", "dyn-c"]) {
    const created = await sendJson(server, "POST", SERVICES, service(name, { type: "NodePort" }));
    expect(created.status).toBe(201);
    expect(created.body.spec.clusterIP).toMatch(/^10\.0\.0\.\d+$/);
    expect(lastOctet(created.body.spec.clusterIP)).toBeGreaterThan(16);
    expect(created.body.spec.clusterIPs).toEqual([created.body.spec.clusterIP]);
    const nodePort = created.body.spec.ports[0].nodePort;
    expect(nodePort >= 30000 && nodePort <= 32767).toBe(true);
  }
});

test("a requested ClusterIP already taken is rejected, and freed when its Service is deleted", async () => {
  expect((await sendJson(server, "POST", SERVICES, service("fixed", { clusterIP: "10.0.0.5" }))).status).toBe(201);
  const clash = await sendJson(server, "POST", SERVICES, service("clash", { clusterIP: "10.0.0.5" }));
  expectStatus(
    clash,
    422,
    "Invalid",
    /spec\.clusterIPs: Invalid value: \[\]string\{"10\.0\.0\.5"\}: failed to allocate IP 10\.0\.0\.5: provided IP is already allocated/,
  );
  const outside = await sendJson(server, "POST", SERVICES, service("outside", { clusterIP: "10.9.0.5" }));
  expectStatus(outside, 422, "Invalid", /not in the valid range/);
  expect((await sendJson(server, "DELETE", `${SERVICES}/fixed`)).status).toBe(200);
  expect((await sendJson(server, "POST", SERVICES, service("clash", { clusterIP: "10.0.0.5" }))).status).toBe(201);
});

test("a requested NodePort already taken is rejected", async () => {
  expect((await sendJson(server, "POST", SERVICES, service("np-a", { type: "NodePort", ports: [{ port: 80, nodePort: 31000 }] }))).status)
    .toBe(201);
  const clash = await sendJson(server, "POST", SERVICES, service("np-b", { type: "NodePort", ports: [{ port: 80, nodePort: 31000 }] }));
  expectStatus(clash, 422, "Invalid", /spec\.ports\[0\]\.nodePort: Invalid value: 31000: provided port is already allocated/);
});

test("the kubernetes Service takes the first IP of the range, with Endpoints naming the server", async () => {
  const kubernetes = await getJson(server, `${SERVICES}/kubernetes`);
  expect(kubernetes.spec).toMatchObject({
    clusterIP: "10.0.0.1",
    ports: [{ name: "https", port: 443, protocol: "TCP", targetPort: Number(new URL(server.url).port) }],
  });
  const endpoints = await getJson(server, "/api/v1/namespaces/default/endpoints/kubernetes");
  expect(endpoints.subsets).toEqual([{
    addresses: [{ ip: "127.0.0.1" }],
    ports: [{ name: "https", port: Number(new URL(server.url).port), protocol: "TCP" }],
  }]);
  const clash = await sendJson(server, "POST", SERVICES, service("steal", { clusterIP: "10.0.0.1" }));
  expect(clash.status).toBe(422);
});

test("allocations survive a crash: a restarted server neither reuses nor forgets them", async () => {
  const before = await getJson(server, SERVICES);
  const taken = new Set(before.items.map((s: { spec: { clusterIP: string } }) => s.spec.clusterIP));
  await server.kill9();
  server = await startServer(["--service-cluster-ip-range=10.0.0.0/24"], { dataDir: server.dataDir });
  const clash = await sendJson(server, "POST", SERVICES, service("again", { clusterIP: "10.0.0.5" }));
  expect(clash.status).toBe(422);
  const nodePortClash = await sendJson(
    server,
    "POST",
    SERVICES,
    service("np-c", { type: "NodePort", ports: [{ port: 80, nodePort: 31000 }] }),
  );
  expect(nodePortClash.status).toBe(422);
  for (let i = 0; i < 20; i++) {
    const created = await sendJson(server, "POST", SERVICES, service(`after-${i}`));
    expect(taken.has(created.body.spec.clusterIP)).toBe(false);
    taken.add(created.body.spec.clusterIP);
  }
});
