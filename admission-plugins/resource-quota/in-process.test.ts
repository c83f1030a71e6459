/** ResourceQuota admission through the whole request chain, in-process (core/server/testing.ts). */
import { afterAll, expect, test } from "bun:test";
import { startInProcess } from "../../core/server/testing.ts";

const server = await startInProcess();
afterAll(() => server.stop());

const pod = (name: string, cpu: string) => ({
  metadata: { name },
  spec: { containers: [{ name: "c", image: "nginx", resources: { requests: { cpu }, limits: { cpu } } }] },
});

test("CheckRequest: quantities add exactly (100m + 200m fit a 300m quota) and one more millicore exceeds it with kube's message", async () => {
  // The ServiceAccount plugin needs the namespace's default account (no serviceaccount controller runs here).
  await server.json("POST", "/api/v1/namespaces/default/serviceaccounts", { body: { metadata: { name: "default" } } });
  const quota = { metadata: { name: "compute" }, spec: { hard: { "requests.cpu": "300m", "limits.cpu": "300m" } } };
  expect((await server.json("POST", "/api/v1/namespaces/default/resourcequotas", { body: quota })).status).toBe(201);
  const first = await server.json("POST", "/api/v1/namespaces/default/pods", { body: pod("a", "100m") });
  expect(first.status).toBe(201);
  expect((await server.json("POST", "/api/v1/namespaces/default/pods", { body: pod("b", "200m") })).status).toBe(201);
  const refused = await server.json("POST", "/api/v1/namespaces/default/pods", { body: pod("c", "1m") });
  expect(refused.status).toBe(403);
  expect(refused.body.message).toBe(
    'pods "c" is forbidden: exceeded quota: compute, requested: limits.cpu=1m,requests.cpu=1m, used: limits.cpu=300m,requests.cpu=300m, limited: limits.cpu=300m,requests.cpu=300m',
  );
});

test("a quota created in a namespace that had none constrains the next create, and its deletion frees it (kube's quotaAccessor lister)", async () => {
  await server.json("POST", "/api/v1/namespaces", { body: { metadata: { name: "counted" } } });
  const configMap = (name: string) => ({ body: { metadata: { name } } });
  // Writes in a namespace without quotas: the followed quotas are listed by now and show none here.
  for (const name of ["a", "b"]) {
    expect((await server.json("POST", "/api/v1/namespaces/counted/configmaps", configMap(name))).status).toBe(201);
  }
  const quota = { metadata: { name: "two" }, spec: { hard: { "count/configmaps": "2" } } };
  expect((await server.json("POST", "/api/v1/namespaces/counted/resourcequotas", { body: quota })).status).toBe(201);
  const refused = await server.json("POST", "/api/v1/namespaces/counted/configmaps", configMap("c"));
  expect([refused.status, refused.body.message]).toEqual([
    403,
    'configmaps "c" is forbidden: exceeded quota: two, requested: count/configmaps=1, used: count/configmaps=2, limited: count/configmaps=2',
  ]);
  expect((await server.json("DELETE", "/api/v1/namespaces/counted/resourcequotas/two")).status).toBe(200);
  expect((await server.json("POST", "/api/v1/namespaces/counted/configmaps", configMap("c"))).status).toBe(201);
});
