import { afterAll, expect, test } from "bun:test";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { createConfigMap, createNamespace, getJson, type Json, openWatch } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

// Two kubun processes on ONE data directory, as two replicas of an API server sharing a store (--data-dir-shared).
const FLAGS = [
  "--data-dir-shared",
  "--leader-elect-retry-period=200ms",
  "--leader-elect-renew-deadline=1s",
  "--leader-elect-lease-duration=2s",
];
const LEASE_PATH = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kubun-controller-manager";

const PKI_FILES = [
  "ca.crt",
  "ca.key",
  "apiserver.crt",
  "apiserver.key",
  "admin.crt",
  "admin.key",
  "front-proxy-ca.crt",
  "front-proxy-client.crt",
];
const readPki = (dataDir: string) => Promise.all(PKI_FILES.map((name) => readFile(join(dataDir, name), "utf8")));

const first = await startServer(FLAGS);
const pkiOfFirst = await readPki(first.dataDir);
const second = await startServer(FLAGS, { dataDir: first.dataDir });

afterAll(async () => {
  await first.terminate();
  await second.terminate();
  await rm(first.dataDir, { recursive: true, force: true });
});

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await read();
    if (done(value)) return value;
    await Bun.sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

const leaseHolder = async (server: TestServer) => String((await getJson(server, LEASE_PATH)).spec.holderIdentity ?? "");
const serviceAccountNames = async (server: TestServer, namespace: string) =>
  (await getJson(server, `/api/v1/namespaces/${namespace}/serviceaccounts`)).items.map((item: Json) => item.metadata.name);

test("an object written through one process is readable through the other", async () => {
  await createConfigMap(first, "default", "shared");
  const read = await second.request("GET", "/api/v1/namespaces/default/configmaps/shared");
  expect(read.status).toBe(200);
});

test("a watch on one process gets the events of writes made through the other", async () => {
  const list = await getJson(second, "/api/v1/namespaces/default/configmaps");
  const watch = await openWatch(
    second,
    `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${list.metadata.resourceVersion}`,
  );
  await createConfigMap(first, "default", "watched");
  const events = await watch.until((event) => event.object.metadata?.name === "watched");
  await watch.close();
  expect(events.at(-1)).toMatchObject({ type: "ADDED", object: { metadata: { name: "watched" } } });
});

test("the second process reuses the certificates the first created", async () => {
  expect(await readPki(first.dataDir)).toEqual(pkiOfFirst);
});

test("both processes see one holder of the controller-manager Lease", async () => {
  const holder = await eventually(() => leaseHolder(first), (name) => name !== "", "a lease holder");
  expect(await leaseHolder(second)).toBe(holder);
});

test("a new namespace gets exactly one default ServiceAccount, left alone afterwards", async () => {
  await createNamespace(second, "team-a");
  const names = await eventually(() => serviceAccountNames(first, "team-a"), (list) => list.length > 0, "the default ServiceAccount");
  expect(names).toEqual(["default"]);
  const before = await getJson(second, "/api/v1/namespaces/team-a/serviceaccounts/default");
  await Bun.sleep(500);
  const after = await getJson(first, "/api/v1/namespaces/team-a/serviceaccounts/default");
  expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
});

test("the same requested ClusterIP created through both processes at once is given to exactly one", async () => {
  const create = (server: TestServer, name: string) =>
    server.request("POST", "/api/v1/namespaces/default/services", {
      body: JSON.stringify({
        apiVersion: "v1",
        kind: "Service",
        metadata: { name },
        spec: { clusterIP: "10.0.0.7", ports: [{ port: 80 }] },
      }),
      headers: { "Content-Type": "application/json" },
    });
  const responses = await Promise.all([create(first, "race-a"), create(second, "race-b")]);
  expect(responses.map((response) => response.status).sort()).toEqual([201, 422]);
  const refused = await responses.find((response) => response.status === 422)!.json();
  expect(refused.message).toContain("failed to allocate IP 10.0.0.7: provided IP is already allocated");
});

test("when the leader stops, the other process takes the Lease and keeps reconciling", async () => {
  const holder = await leaseHolder(second);
  await first.terminate();
  const next = await eventually(() => leaseHolder(second), (name) => name !== "" && name !== holder, "a new lease holder");
  expect(next).not.toBe(holder);
  await createNamespace(second, "team-b");
  const names = await eventually(() => serviceAccountNames(second, "team-b"), (list) => list.length > 0, "the default ServiceAccount");
  expect(names).toEqual(["default"]);
});
