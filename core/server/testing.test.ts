import { afterAll, expect, test } from "bun:test";
import { startInProcess } from "./testing.ts";

const server = await startInProcess(["--authorization-mode=RBAC"]);
afterAll(() => server.stop());

test("the in-process server runs the whole chain: the admin creates and reads, an unbound user gets RBAC's 403", async () => {
  const created = await server.json("POST", "/api/v1/namespaces/default/configmaps", {
    body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "settings" }, data: { mode: "edge" } },
  });
  expect(created.status).toBe(201);
  expect((await server.json("GET", "/api/v1/namespaces/default/configmaps/settings")).body.data).toEqual({ mode: "edge" });
  const denied = await server.json("GET", "/api/v1/namespaces/default/configmaps/settings", { user: { name: "jane" } });
  expect(denied.status).toBe(403);
  expect(denied.body.message).toBe(
    'configmaps "settings" is forbidden: User "jane" cannot get resource "configmaps" in API group "" in the namespace "default"',
  );
});
