/**
 * --event-ttl: Events are removed a TTL after their last write without any client asking, as kube's event
 * registry stores them under an etcd lease (TTLFunc); a watcher sees them deleted. Other objects stay.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createConfigMap, createNamespace, getJson, openWatch, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "ttl";
let server: TestServer;

beforeAll(async () => {
  server = await startServer(["--event-ttl", "3s"]);
  await createNamespace(server, NS);
});

afterAll(async () => {
  await server?.stop();
});

async function eventNames(path: string): Promise<string[]> {
  return (await getJson(server, path)).items.map((item: { metadata: { name: string } }) => item.metadata.name);
}

/** Polls until the collection holds none of `names` (the sweeper runs every second with a 3 s TTL). */
async function waitUntilGone(path: string, names: string[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  while ((await eventNames(path)).some((name) => names.includes(name))) {
    if (Date.now() > deadline) throw new Error(`${names.join(", ")} still in ${path} 20 s after a 3 s TTL`);
    await Bun.sleep(250);
  }
}

test("Event registry TTLFunc: core and events.k8s.io Events are gone after --event-ttl, watchers see DELETED", async () => {
  const core = await sendJson(server, "POST", `/api/v1/namespaces/${NS}/events`, {
    apiVersion: "v1",
    kind: "Event",
    metadata: { name: "core-event" },
    involvedObject: { kind: "ConfigMap", namespace: NS, name: "x" },
    reason: "Testing",
    message: "expires",
  });
  expect(core.status).toBe(201);
  const modern = await sendJson(server, "POST", `/apis/events.k8s.io/v1/namespaces/${NS}/events`, {
    apiVersion: "events.k8s.io/v1",
    kind: "Event",
    metadata: { name: "modern-event" },
    eventTime: "2026-01-01T00:00:00.000000Z",
    reportingController: "tests/event-ttl",
    reportingInstance: "tests",
    action: "Testing",
    reason: "Testing",
    regarding: { kind: "ConfigMap", namespace: NS, name: "x" },
    type: "Normal",
  });
  expect(modern.status).toBe(201);
  await createConfigMap(server, NS, "stays");
  const watch = await openWatch(server, `/api/v1/namespaces/${NS}/events?watch=1&resourceVersion=${core.body.metadata.resourceVersion}`);

  await waitUntilGone(`/api/v1/namespaces/${NS}/events`, ["core-event"]);
  await waitUntilGone(`/apis/events.k8s.io/v1/namespaces/${NS}/events`, ["modern-event"]);
  const deleted = await watch.until((event) => event.type === "DELETED");
  expect(deleted.at(-1)?.object.metadata.name).toBe("core-event");
  await watch.close();
  expect((await server.request("GET", `/api/v1/namespaces/${NS}/configmaps/stays`)).status).toBe(200);
});
