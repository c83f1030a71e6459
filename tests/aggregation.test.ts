/**
 * APIService aggregation end to end: a tiny aggregated server on loopback behind a Service and Endpoints, registered
 * with a caBundle, is reached through kubun with the caller named in X-Remote-* headers over the front-proxy client
 * certificate; when it stops, its APIService turns Available=False and its requests get 503.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { stringify } from "yaml";
import { type AggregatedServer, type FrontProxyTrust, startAggregatedServer, WARDLE_GROUP_VERSION } from "./_aggregated-server.ts";
import { rawGet } from "./_raw-request.ts";
import { getJson, sendJson } from "./_api.ts";
import { kubectlOk } from "./_kubectl.ts";
import { startServer, type TestServer } from "./harness.ts";

let server: TestServer;
let backend: AggregatedServer;

const FLUNDERS = `/apis/${WARDLE_GROUP_VERSION}/namespaces/default/flunders`;

function registration(port: number, caPem: string): string {
  // One YAML document per object: kubectl's validation has no schema for a v1 List.
  return [
    { apiVersion: "v1", kind: "Namespace", metadata: { name: "wardle" } },
    {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "api", namespace: "wardle" },
      spec: { ports: [{ name: "https", port: 443, targetPort: port }] },
    },
    {
      apiVersion: "v1",
      kind: "Endpoints",
      metadata: { name: "api", namespace: "wardle" },
      subsets: [{ addresses: [{ ip: "127.0.0.1" }], ports: [{ name: "https", port }] }],
    },
    {
      apiVersion: "apiregistration.k8s.io/v1",
      kind: "APIService",
      metadata: { name: "v1.wardle.example.com" },
      spec: {
        group: "wardle.example.com",
        version: "v1",
        groupPriorityMinimum: 1000,
        versionPriority: 15,
        service: { namespace: "wardle", name: "api" },
        caBundle: Buffer.from(caPem).toString("base64"),
      },
    },
  ].map((object) => stringify(object)).join("---\n");
}

async function availability(): Promise<{ status: string; reason: string; message: string }> {
  const apiService = await getJson(server, "/apis/apiregistration.k8s.io/v1/apiservices/v1.wardle.example.com");
  return apiService.status?.conditions?.find((c: { type: string }) => c.type === "Available") ?? { status: "", reason: "", message: "" };
}

async function waitForAvailability(status: string): Promise<{ status: string; reason: string; message: string }> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const condition = await availability();
    if (condition.status === status || Date.now() > deadline) return condition;
    await Bun.sleep(200);
  }
}

const AUTHENTICATION_CONFIGMAP = "/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication";

/** What an aggregated server built on k8s.io/apiserver reads at start: only the published ConfigMap. */
async function frontProxyTrustFromConfigMap(): Promise<FrontProxyTrust> {
  const data = JSON.parse(
    await kubectlOk(server, ["-n", "kube-system", "get", "configmap", "extension-apiserver-authentication", "-o", "jsonpath={.data}"]),
  );
  return {
    caPem: data["requestheader-client-ca-file"],
    allowedNames: JSON.parse(data["requestheader-allowed-names"]),
    usernameHeaders: JSON.parse(data["requestheader-username-headers"]),
    groupHeaders: JSON.parse(data["requestheader-group-headers"]),
  };
}

async function waitForConfigMap(check: (data: Record<string, string>) => boolean): Promise<Record<string, string>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const answer = await sendJson(server, "GET", AUTHENTICATION_CONFIGMAP);
    if ((answer.status === 200 && check(answer.body.data ?? {})) || Date.now() > deadline) return answer.body.data ?? {};
    await Bun.sleep(100);
  }
}

beforeAll(async () => {
  // RBAC as kubeadm runs it: the bootstrap policy then includes kube-system's Roles.
  server = await startServer(["--authorization-mode=Node,RBAC"]);
  backend = await startAggregatedServer("api.wardle.svc", await frontProxyTrustFromConfigMap());
  const applied = await server.kubectl(["apply", "-f", "-"], { stdin: registration(backend.port, backend.caPem) });
  expect(applied.stderr).toBe("");
});
afterAll(async () => {
  await backend?.stop();
  await server?.stop();
});

test("a reachable aggregated server makes its APIService Available with reason Passed", async () => {
  expect(await waitForAvailability("True")).toMatchObject({ status: "True", reason: "Passed", message: "all checks passed" });
  const listed = await server.kubectl(["get", "apiservice", "v1.wardle.example.com"]);
  expect(listed.stdout).toMatch(/v1\.wardle\.example\.com\s+wardle\/api\s+True/);
});

test("kubectl api-resources lists the aggregated resource from the proxied discovery", async () => {
  await waitForAvailability("True");
  const result = await server.kubectl(["api-resources", "--api-group=wardle.example.com"]);
  expect(result.stdout).toMatch(/flunders\s+wardle\.example\.com\/v1\s+true\s+Flunder/);
  const groups = await getJson(server, "/apis");
  expect(groups.groups.map((g: { name: string }) => g.name)).toContain("wardle.example.com");
});

test("kubectl get reaches the aggregated server as the caller, over the front-proxy client certificate", async () => {
  await waitForAvailability("True");
  backend.seen.length = 0;
  const listed = await server.kubectl(["get", "flunders", "-n", "default"]);
  expect(listed.stdout).toContain("my-flunder");
  const one = await server.kubectl(["get", "flunder", "my-flunder", "-n", "default", "-o", "jsonpath={.kind}"]);
  expect(one.stdout).toBe("Flunder");
  const request = backend.seen.find((seen) => seen.path.startsWith(FLUNDERS));
  expect(request).toMatchObject({ user: "admin", clientCommonName: "front-proxy-client", clientVerified: true });
  expect(request!.groups).toEqual(["system:masters", "system:authenticated"]);
});

test("a large answer from the aggregated server passes through unzipped (kubun compresses only what it serializes)", async () => {
  await waitForAvailability("True");
  const answer = await rawGet(server, `/apis/${WARDLE_GROUP_VERSION}/namespaces/large/flunders`, "gzip");
  expect(answer.status).toBe(200);
  expect(answer.headers.has("content-encoding")).toBe(false);
  expect(JSON.parse(answer.body.toString()).kind).toBe("FlunderList");
});

test("a watch through the aggregator streams events as the aggregated server sends them", async () => {
  await waitForAvailability("True");
  const controller = new AbortController();
  const response = await server.request("GET", `${FLUNDERS}?watch=true`, { signal: controller.signal });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const first = await reader.read();
  expect(new TextDecoder().decode(first.value)).toContain('"type":"ADDED"');
  controller.abort();
});

test("kubectl get apiservices shows the built-in group/versions as Local and available", async () => {
  const listed = await server.kubectl(["get", "apiservices"]);
  expect(listed.stdout).toMatch(/^v1\.\s+Local\s+True/m);
  expect(listed.stdout).toMatch(/^v1\.apps\s+Local\s+True/m);
  expect(listed.stdout).toMatch(/^v1\.authentication\.k8s\.io\s+Local\s+True/m);
});

test("the aggregated server's OpenAPI joins /openapi/v2 and the /openapi/v3 index, so kubectl explain describes its kind", async () => {
  await waitForAvailability("True");
  const deadline = Date.now() + 10_000;
  let index = await getJson(server, "/openapi/v3");
  while (!index.paths[`apis/${WARDLE_GROUP_VERSION}`] && Date.now() < deadline) {
    await Bun.sleep(100);
    index = await getJson(server, "/openapi/v3");
  }
  expect(index.paths[`apis/${WARDLE_GROUP_VERSION}`].serverRelativeURL).toStartWith(`/openapi/v3/apis/${WARDLE_GROUP_VERSION}?hash=`);
  expect(index.paths["apis/apps/v1"]).toBeDefined();
  const v2 = await getJson(server, "/openapi/v2");
  expect(v2.definitions["com.example.wardle.v1.Flunder"]["x-kubernetes-group-version-kind"]).toEqual([{
    group: "wardle.example.com",
    version: "v1",
    kind: "Flunder",
  }]);
  expect(v2.definitions["io.k8s.api.apps.v1.Deployment"]).toBeDefined();
  const explained = await kubectlOk(server, ["explain", "flunders.spec.reference"]);
  expect(explained).toContain("The name of another flunder this one refers to.");
  const protobuf = await server.request("GET", "/openapi/v2", {
    headers: { Accept: "application/com.github.proto-openapi.spec.v2@v1.0+protobuf" },
  });
  expect(protobuf.status).toBe(200);
});

test("stopping the aggregated server turns its APIService Available=False and its requests into 503", async () => {
  await waitForAvailability("True");
  await backend.stop();
  const condition = await waitForAvailability("False");
  expect(condition).toMatchObject({ status: "False", reason: "FailedDiscoveryCheck" });
  expect(condition.message).toStartWith(`failing or missing response from https://127.0.0.1:${backend.port}/apis/wardle.example.com/v1:`);
  const response = await server.request("GET", FLUNDERS);
  expect(response.status).toBe(503);
  expect(await response.text()).toBe("service unavailable\n");
  const result = await server.kubectl(["get", "flunders", "-n", "default"]);
  expect(result.stderr).toContain("the server is currently unable to handle the request");
  expect((await getJson(server, "/openapi/v3")).paths[`apis/${WARDLE_GROUP_VERSION}`]).toBeUndefined();
});

test("extension-apiserver-authentication publishes kube's keys (ClientCARegistrationHook) and is restored after an edit or a delete", async () => {
  const published = await waitForConfigMap(() => true);
  expect(Object.keys(published).sort()).toEqual([
    "client-ca-file",
    "requestheader-allowed-names",
    "requestheader-client-ca-file",
    "requestheader-extra-headers-prefix",
    "requestheader-group-headers",
    "requestheader-username-headers",
  ]);
  expect([
    published["requestheader-allowed-names"],
    published["requestheader-username-headers"],
    published["requestheader-group-headers"],
    published["requestheader-extra-headers-prefix"],
  ])
    .toEqual(['["front-proxy-client"]', '["X-Remote-User"]', '["X-Remote-Group"]', '["X-Remote-Extra-"]']);
  expect(published["client-ca-file"]).toStartWith("-----BEGIN CERTIFICATE-----");

  await kubectlOk(server, [
    "-n",
    "kube-system",
    "patch",
    "configmap",
    "extension-apiserver-authentication",
    "--type=merge",
    "-p",
    '{"data":{"requestheader-allowed-names":"[\\"someone\\"]"}}',
  ]);
  const edited = await waitForConfigMap((data) => data["requestheader-allowed-names"] !== '["someone"]');
  expect(edited["requestheader-allowed-names"]).toBe('["someone","front-proxy-client"]');
  await kubectlOk(server, ["-n", "kube-system", "delete", "configmap", "extension-apiserver-authentication"]);
  const restored = await waitForConfigMap((data) => data["requestheader-client-ca-file"] !== undefined);
  expect(restored["requestheader-client-ca-file"]).toBe(published["requestheader-client-ca-file"]);
});

test("the extension-apiserver-authentication-reader Role lets an aggregated server's service account read only that ConfigMap", async () => {
  await kubectlOk(server, [
    "-n",
    "kube-system",
    "create",
    "rolebinding",
    "wardle-auth-reader",
    "--role=extension-apiserver-authentication-reader",
    "--serviceaccount=wardle:api",
  ]);
  const as = ["--as=system:serviceaccount:wardle:api", "-n", "kube-system"];
  expect((await kubectlOk(server, ["auth", "can-i", "get", "configmap/extension-apiserver-authentication", ...as])).trim()).toBe("yes");
  const other = await server.kubectl(["auth", "can-i", "get", "configmap/kube-root-ca.crt", ...as]);
  expect(other.stdout.trim()).toBe("no");
});
