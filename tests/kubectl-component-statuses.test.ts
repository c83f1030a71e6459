/**
 * `kubectl get componentstatuses` as kube's componentstatus REST answers it (pkg/registry/core/componentstatus):
 * get and list only, each component checked at request time, printed by printComponentStatus, with core/v1
 * ComponentStatus's deprecation warning. kubun's own controller manager and scheduler count as running here; one
 * --controllers leaves out is probed at kube's port, as kube probes it.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

let server: TestServer;

beforeAll(async () => {
  // Without "*" kubun's scheduler does not run; the namespace controller keeps a controller manager here.
  server = await startServer(["--controllers=namespace"]);
});
afterAll(() => server.stop());

test("kubectl get cs lists controller-manager, scheduler and etcd-0 with printComponentStatus's columns and kube's warning", async () => {
  const result = await server.kubectl(["get", "componentstatuses"]);
  expect(result.code).toBe(0);
  expect(result.stderr).toContain("Warning: v1 ComponentStatus is deprecated in v1.19+");
  const rows = result.stdout.trim().split("\n").map((line) => line.trim().split(/\s{2,}/));
  expect(rows[0]).toEqual(["NAME", "STATUS", "MESSAGE", "ERROR"]);
  expect(rows.slice(1).sort()).toEqual([
    ["controller-manager", "Healthy", "ok"],
    ["etcd-0", "Healthy", "ok"],
    // Nothing serves kube's scheduler port here: HttpServer.DoServerCheck's failed dial is the message.
    ["scheduler", "Unhealthy", 'Get "https://127.0.0.1:10259/healthz": dial tcp 127.0.0.1:10259: connect: connection refused'],
  ]);
});

test("get of one component answers it; an unknown one is REST.Get's plain error, a 500 without reason", async () => {
  const one = await server.kubectl(["get", "cs", "etcd-0", "-o", "json"]);
  expect(one.code).toBe(0);
  expect(JSON.parse(one.stdout)).toEqual({
    apiVersion: "v1",
    kind: "ComponentStatus",
    metadata: { name: "etcd-0" },
    conditions: [{ type: "Healthy", status: "True", message: "ok" }],
  });
  const missing = await sendJson(server, "GET", "/api/v1/componentstatuses/nope");
  expect(missing.status).toBe(500);
  expect(missing.body).toEqual({
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: "Component not found: nope",
    code: 500,
  });
});

test("the list is made at request time: empty metadata, selectors applied to the name and the empty label set, no watch", async () => {
  const list = await sendJson(server, "GET", "/api/v1/componentstatuses?fieldSelector=metadata.name%3Detcd-0");
  expect(list.status).toBe(200);
  expect(list.body.metadata).toEqual({});
  expect(list.body.items.map((item: { metadata: { name: string } }) => item.metadata.name)).toEqual(["etcd-0"]);
  expect((await sendJson(server, "GET", "/api/v1/componentstatuses?labelSelector=tier%3Dcontrol")).body.items).toEqual([]);
  const watch = await sendJson(server, "GET", "/api/v1/componentstatuses?watch=true");
  expect(watch.status).toBe(405);
  expect(watch.body.reason).toBe("MethodNotAllowed");
});
