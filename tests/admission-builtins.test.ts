/** End-to-end: kube's default admission plugins against the compiled server. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, expectStatus, getJson, type Json, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startServer([]);
});
afterAll(() => server.stop());

function pod(name: string, spec: Json = {}, metadata: Json = {}): Json {
  return { apiVersion: "v1", kind: "Pod", metadata: { name, ...metadata }, spec: { containers: [{ name: "c", image: "nginx" }], ...spec } };
}

async function namespaceWithAccount(name: string, account: Json = {}): Promise<void> {
  await createNamespace(server, name);
  // The default account may come from its controller first; "builder" carries the test's settings.
  await sendJson(server, "POST", `/api/v1/namespaces/${name}/serviceaccounts`, { metadata: { name: "default" } });
  expect(
    (await sendJson(server, "POST", `/api/v1/namespaces/${name}/serviceaccounts`, { metadata: { name: "builder" }, ...account })).status,
  ).toBe(201);
}

test("NamespaceLifecycle refuses deleting the default namespace", async () => {
  expectStatus(
    await sendJson(server, "DELETE", "/api/v1/namespaces/default"),
    403,
    "Forbidden",
    'namespaces "default" is forbidden: this namespace may not be deleted',
  );
});

test("NamespaceLifecycle refuses creating into a missing namespace", async () => {
  expectStatus(
    await sendJson(server, "POST", "/api/v1/namespaces/nowhere/configmaps", { metadata: { name: "x" } }),
    404,
    "NotFound",
    'namespaces "nowhere" not found',
  );
});

test("ServiceAccount mounts kube's projected token volume and copies imagePullSecrets", async () => {
  await namespaceWithAccount("sa-ns", { imagePullSecrets: [{ name: "registry" }] });
  const answer = await sendJson(server, "POST", "/api/v1/namespaces/sa-ns/pods", pod("p", { serviceAccountName: "builder" }));
  expect(answer.status).toBe(201);
  const spec = answer.body.spec;
  expect(spec.serviceAccountName).toBe("builder");
  expect(spec.imagePullSecrets).toEqual([{ name: "registry" }]);
  const volume = spec.volumes[0];
  expect(volume.name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  expect(volume.projected.sources).toEqual([
    { serviceAccountToken: { expirationSeconds: 3607, path: "token" } },
    { configMap: { name: "kube-root-ca.crt", items: [{ key: "ca.crt", path: "ca.crt" }] } },
    { downwardAPI: { items: [{ path: "namespace", fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" } }] } },
  ]);
  expect(spec.containers[0].volumeMounts).toEqual([{
    name: volume.name,
    readOnly: true,
    mountPath: "/var/run/secrets/kubernetes.io/serviceaccount",
  }]);
});

test("ServiceAccount gives a pod the default account and no token when the pod opts out", async () => {
  const answer = await sendJson(server, "POST", "/api/v1/namespaces/sa-ns/pods", pod("no-token", { automountServiceAccountToken: false }));
  expect(answer.status).toBe(201);
  expect(answer.body.spec.serviceAccountName).toBe("default");
  expect(answer.body.spec.volumes).toBeUndefined();
});

test("ServiceAccount refuses a pod naming a missing account", async () => {
  const answer = await sendJson(server, "POST", "/api/v1/namespaces/sa-ns/pods", pod("ghost", { serviceAccountName: "ghost" }));
  expectStatus(
    answer,
    403,
    "Forbidden",
    'pods "ghost" is forbidden: error looking up service account sa-ns/ghost: serviceaccount "ghost" not found',
  );
});

test("Priority refuses a missing class and fills the priority of a known one", async () => {
  const missing = await sendJson(server, "POST", "/api/v1/namespaces/sa-ns/pods", pod("pr", { priorityClassName: "gold" }));
  expectStatus(missing, 403, "Forbidden", 'pods "pr" is forbidden: no PriorityClass with name gold was found');
  const critical = await sendJson(
    server,
    "POST",
    "/api/v1/namespaces/sa-ns/pods",
    pod("crit", { priorityClassName: "system-node-critical" }),
  );
  expect(critical.status).toBe(201);
  expect(critical.body.spec.priority).toBe(2000001000);
});

test("DefaultTolerationSeconds and TaintNodesByCondition fill their defaults", async () => {
  const created = await getJson(server, "/api/v1/namespaces/sa-ns/pods/p");
  expect(created.spec.tolerations).toContainEqual({
    key: "node.kubernetes.io/not-ready",
    operator: "Exists",
    effect: "NoExecute",
    tolerationSeconds: 300,
  });
  const node = await sendJson(server, "POST", "/api/v1/nodes", { metadata: { name: "n1" } });
  expect(node.status).toBe(201);
  expect(node.body.spec.taints).toEqual([{ key: "node.kubernetes.io/not-ready", effect: "NoSchedule" }]);
});

test("PodSecurity enforce refuses a pod that breaks the restricted level", async () => {
  await namespaceWithAccount("psa");
  const labels = { "pod-security.kubernetes.io/enforce": "restricted" };
  expect((await sendJson(server, "PATCH", "/api/v1/namespaces/psa", { metadata: { labels } }, "application/merge-patch+json")).status).toBe(
    200,
  );
  const answer = await sendJson(server, "POST", "/api/v1/namespaces/psa/pods", pod("bad"));
  expectStatus(
    answer,
    403,
    "Forbidden",
    /^pods "bad" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false \(container "c" must set securityContext.allowPrivilegeEscalation=false\), unrestricted capabilities/,
  );
});

test("ResourceQuota lets exactly 5 of 20 concurrent creates through a quota of 5", async () => {
  await createNamespace(server, "quota");
  const quota = await sendJson(server, "POST", "/api/v1/namespaces/quota/resourcequotas", {
    metadata: { name: "q" },
    spec: { hard: { "count/podtemplates": "5" } },
  });
  expect(quota.status).toBe(201);
  const creates = Array.from(
    { length: 20 },
    (_, i) =>
      sendJson(server, "POST", "/api/v1/namespaces/quota/podtemplates", {
        metadata: { name: `c${i}` },
        template: { spec: { containers: [{ name: "c", image: "nginx" }] } },
      }),
  );
  const answers = await Promise.all(creates);
  expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
  const refused = answers.find((a) => a.status === 403)!;
  expect(refused.body.message).toMatch(
    /^podtemplates "c\d+" is forbidden: exceeded quota: q, requested: count\/podtemplates=1, used: count\/podtemplates=5, limited: count\/podtemplates=5$/,
  );
  const status = (await getJson(server, "/api/v1/namespaces/quota/resourcequotas/q")).status;
  expect(status).toEqual({ hard: { "count/podtemplates": "5" }, used: { "count/podtemplates": "5" } });
});

test("kubectl shows an admission denial", async () => {
  const result = await server.kubectl(["delete", "namespace", "kube-system"]);
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain('namespaces "kube-system" is forbidden: this namespace may not be deleted');
});
