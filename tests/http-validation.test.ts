/** Value validation over HTTP: the seed's kind-specific rules answer 422 with one cause per field and store nothing. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Buffer } from "node:buffer";
import { createNamespace, expectStatus, getJson, type Json, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "validation";
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
});
afterAll(async () => {
  await server?.stop();
});

/** POSTs an invalid object: 422 with exactly these causes, and a GET afterwards finds nothing. */
async function expectRejected(collection: string, body: Json, causes: { field: string; message: string }[]): Promise<Json> {
  const answer = await sendJson(server, "POST", collection, body);
  expectStatus(answer, 422, "Invalid");
  expect(answer.body.details.causes.map((c: Json) => ({ field: c.field, message: c.message }))).toEqual(causes);
  expect(answer.body.details.causes.every((c: Json) => typeof c.reason === "string" && c.reason.startsWith("FieldValue"))).toBe(true);
  expectStatus(await sendJson(server, "GET", `${collection}/${body.metadata.name}`), 404, "NotFound");
  return answer.body;
}

const apiService = (name: string, spec: Json) => ({
  apiVersion: "apiregistration.k8s.io/v1",
  kind: "APIService",
  metadata: { name },
  spec: {
    group: "example.com",
    version: "v1",
    groupPriorityMinimum: 1000,
    versionPriority: 15,
    service: { namespace: NS, name: "api" },
    ...spec,
  },
});
const APISERVICES = "/apis/apiregistration.k8s.io/v1/apiservices";

test("APIService: name must be <version>.<group>, versionPriority > 0, port 1-65535", async () => {
  const body = await expectRejected(
    APISERVICES,
    apiService("v2.example.com", { versionPriority: 0, service: { namespace: NS, name: "api", port: 70000 } }),
    [
      { field: "metadata.name", message: 'Invalid value: "v2.example.com": must be `spec.version+"."+spec.group`: "v1.example.com"' },
      { field: "spec.versionPriority", message: "Invalid value: 0: must be positive and less than 1000" },
      { field: "spec.service.port", message: "Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive" },
    ],
  );
  expect(body.message).toStartWith('APIService.apiregistration.k8s.io "v2.example.com" is invalid: [metadata.name: Invalid value:');
  expect(body.details).toMatchObject({ name: "v2.example.com", group: "apiregistration.k8s.io", kind: "APIService" });
});

const WEBHOOKS = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";
const webhook = (extra: Json = {}) => ({
  name: "check.example.com",
  sideEffects: "None",
  admissionReviewVersions: ["v1"],
  clientConfig: { url: "https://hook.example.com/check" },
  ...extra,
});

test("webhook configurations: unique names, timeout 1-30, https-only url, sideEffects, review versions", async () => {
  const body = {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingWebhookConfiguration",
    metadata: { name: "hooks" },
    webhooks: [
      webhook({ timeoutSeconds: 31, clientConfig: { url: "http://u@hook.example.com/?q=1#f" } }),
      webhook({ sideEffects: "Some", admissionReviewVersions: ["v9"] }),
    ],
  };
  await expectRejected(WEBHOOKS, body, [
    { field: "webhooks[0].timeoutSeconds", message: "Invalid value: 31: the timeout value must be between 1 and 30 seconds" },
    {
      field: "webhooks[0].clientConfig.url",
      message: `Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
    },
    { field: "webhooks[0].clientConfig.url", message: 'Invalid value: "u": user information is not permitted in the URL' },
    { field: "webhooks[0].clientConfig.url", message: 'Invalid value: "f": fragments are not permitted in the URL' },
    { field: "webhooks[0].clientConfig.url", message: 'Invalid value: "q=1": query parameters are not permitted in the URL' },
    { field: "webhooks[1].sideEffects", message: 'Unsupported value: "Some": supported values: "None", "NoneOnDryRun"' },
    { field: "webhooks[1].admissionReviewVersions", message: 'Invalid value: []string{"v9"}: must include at least one of v1, v1beta1' },
    { field: "webhooks[1].name", message: 'Duplicate value: "check.example.com"' },
  ]);
  const created = await sendJson(server, "POST", WEBHOOKS, { ...body, webhooks: [webhook()] });
  expect(created.status).toBe(201);
});

test("bootstrap token secrets: token id, secret, expiration and group formats", async () => {
  const b64 = (text: string) => Buffer.from(text).toString("base64");
  await expectRejected("/api/v1/namespaces/kube-system/secrets", {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "bootstrap-token-abcdef", namespace: "kube-system" },
    type: "bootstrap.kubernetes.io/token",
    data: {
      "token-id": b64("abcdef"),
      "token-secret": b64("TOO-SHORT"),
      expiration: b64("soon"),
      "auth-extra-groups": b64("system:nodes"),
    },
  }, [
    {
      field: "data[token-secret]",
      message:
        `Invalid value: "<secret contents redacted>": must be 16 characters from [a-z0-9] (regex used for validation is '[a-z0-9]{16}')`,
    },
    {
      field: "data[expiration]",
      message: `Invalid value: "soon": must be an absolute UTC time in RFC 3339 format (e.g. '2017-01-02T15:04:05Z')`,
    },
    {
      field: "data[auth-extra-groups]",
      message:
        `Invalid value: "system:nodes": bootstrap group "system:nodes" is invalid (must match \\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z)`,
    },
  ]);
});

const SERVICES = `/api/v1/namespaces/${NS}/services`;

test("Service: type values, port range, names for several ports, nodePort only for NodePort/LoadBalancer", async () => {
  await expectRejected(SERVICES, {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "web" },
    spec: { type: "ClusterIP", ports: [{ port: 0, nodePort: 30080 }, { name: "b", port: 81 }] },
  }, [
    { field: "spec.ports[0].name", message: "Required value" },
    { field: "spec.ports[0].port", message: "Invalid value: 0: must be between 1 and 65535, inclusive" },
    // targetPort defaults to port, so kube reports it too.
    { field: "spec.ports[0].targetPort", message: "Invalid value: 0: must be between 1 and 65535, inclusive" },
    { field: "spec.ports[0].nodePort", message: "Forbidden: may not be used when `type` is 'ClusterIP'" },
  ]);
  await expectRejected(SERVICES, {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "odd" },
    spec: { type: "Odd", ports: [{ port: 80 }] },
  }, [
    { field: "spec.type", message: 'Unsupported value: "Odd": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"' },
  ]);
});

test("immutable fields: a changed Service clusterIP and the data of an immutable ConfigMap give 422", async () => {
  const service = {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "fixed" },
    spec: { clusterIP: "10.0.0.10", ports: [{ port: 80 }] },
  };
  expect((await sendJson(server, "POST", SERVICES, service)).status).toBe(201);
  const stored = await getJson(server, `${SERVICES}/fixed`);
  const moved = await sendJson(server, "PUT", `${SERVICES}/fixed`, {
    ...stored,
    spec: { ...stored.spec, clusterIP: "10.0.0.11", clusterIPs: ["10.0.0.11"] },
  });
  expectStatus(
    moved,
    422,
    "Invalid",
    'Service "fixed" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.0.0.11"}: may not change once set',
  );

  const configMaps = `/api/v1/namespaces/${NS}/configmaps`;
  const frozen = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "frozen" }, immutable: true, data: { a: "1" } };
  expect((await sendJson(server, "POST", configMaps, frozen)).status).toBe(201);
  const edited = await sendJson(server, "PATCH", `${configMaps}/frozen`, { data: { a: "2" } }, "application/merge-patch+json");
  expectStatus(edited, 422, "Invalid", 'ConfigMap "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set');
  expect((await getJson(server, `${configMaps}/frozen`)).data).toEqual({ a: "1" });
});

test("immutable fields: a Deployment's selector and a RoleBinding's roleRef cannot change", async () => {
  const deployments = `/apis/apps/v1/namespaces/${NS}/deployments`;
  const deployment = (labels: Json) => ({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "app" },
    spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: "c", image: "nginx" }] } } },
  });
  expect((await sendJson(server, "POST", deployments, deployment({ app: "a" }))).status).toBe(201);
  const changed = await sendJson(server, "PUT", `${deployments}/app`, deployment({ app: "b" }));
  expectStatus(changed, 422, "Invalid");
  expect(changed.body.details.causes.map((c: Json) => c.field)).toEqual(["spec.selector"]);

  const bindings = `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings`;
  const binding = (role: string) => ({
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "RoleBinding",
    metadata: { name: "readers" },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: role },
    subjects: [{ kind: "User", name: "alice", apiGroup: "rbac.authorization.k8s.io" }],
  });
  expect((await sendJson(server, "POST", bindings, binding("view"))).status).toBe(201);
  const rebound = await sendJson(server, "PUT", `${bindings}/readers`, binding("edit"));
  expectStatus(
    rebound,
    422,
    "Invalid",
    /roleRef: Invalid value: rbac.RoleRef\{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"\}: cannot change roleRef$/,
  );
});

test("a pod update that changes more than images is forbidden with kube's message", async () => {
  const pods = `/api/v1/namespaces/${NS}/pods`;
  const pod = { apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec: { containers: [{ name: "c", image: "nginx:1" }] } };
  expect((await sendJson(server, "POST", pods, pod)).status).toBe(201);
  // A strategic merge patch merges containers by name, so only the image changes (the ServiceAccount admission mounts stay).
  const imageOnly = await sendJson(
    server,
    "PATCH",
    `${pods}/p`,
    { spec: { containers: [{ name: "c", image: "nginx:2" }] } },
    "application/strategic-merge-patch+json",
  );
  expect({ status: imageOnly.status, message: imageOnly.body.message }).toEqual({ status: 200, message: undefined });
  const moved = await sendJson(server, "PATCH", `${pods}/p`, { spec: { nodeName: "elsewhere" } }, "application/merge-patch+json");
  expectStatus(
    moved,
    422,
    "Invalid",
    /^Pod "p" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`/,
  );
});
