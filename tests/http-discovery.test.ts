/** Discovery documents, /version, the health endpoints and /metrics. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createConfigMap, createNamespace, getJson, type Json } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

async function text(path: string, anonymous = false): Promise<{ status: number; body: string }> {
  const response = anonymous ? await server.requestAnonymous("GET", path) : await server.request("GET", path);
  return { status: response.status, body: await response.text() };
}

test("/api lists the core version", async () => {
  const api = await getJson(server, "/api");
  expect(api).toMatchObject({ kind: "APIVersions", versions: ["v1"] });
  expect(api.serverAddressByClientCIDRs).toEqual([{ clientCIDR: "0.0.0.0/0", serverAddress: expect.stringMatching(/^127\.0\.0\.1:\d+$/) }]);
});

test("/apis lists the named groups with their versions and preferred version", async () => {
  const apis = await getJson(server, "/apis");
  expect(apis).toMatchObject({ kind: "APIGroupList", apiVersion: "v1" });
  const apps = apis.groups.find((group: Json) => group.name === "apps");
  expect(apps).toEqual({
    name: "apps",
    versions: [{ groupVersion: "apps/v1", version: "v1" }],
    preferredVersion: { groupVersion: "apps/v1", version: "v1" },
  });
  const names = apis.groups.map((group: Json) => group.name);
  for (const group of ["batch", "coordination.k8s.io", "rbac.authorization.k8s.io", "networking.k8s.io"]) expect(names).toContain(group);
  expect(names).not.toContain("");
});

// kube 1.26 leaves singularName empty for built-in resources (populated from 1.27).
test("/api/v1 describes the core resources with verbs, short names and subresources", async () => {
  const list = await getJson(server, "/api/v1");
  expect(list).toMatchObject({ kind: "APIResourceList", groupVersion: "v1" });
  const byName = new Map(list.resources.map((resource: Json) => [resource.name, resource]));
  expect(byName.get("pods")).toMatchObject({
    name: "pods",
    singularName: "",
    namespaced: true,
    kind: "Pod",
    shortNames: ["po"],
    categories: ["all"],
  });
  expect((byName.get("pods") as Json).verbs.sort()).toEqual([
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "update",
    "watch",
  ]);
  expect((byName.get("pods") as Json).storageVersionHash).toMatch(/^[A-Za-z0-9+/=]{12}$/);
  expect(byName.get("pods/status")).toMatchObject({
    name: "pods/status",
    namespaced: true,
    kind: "Pod",
    verbs: ["get", "patch", "update"],
  });
  expect(byName.get("namespaces")).toMatchObject({ namespaced: false, kind: "Namespace", shortNames: ["ns"] });
  expect(byName.get("configmaps")).toMatchObject({ namespaced: true, kind: "ConfigMap", shortNames: ["cm"] });
});

test("/apis/apps/v1 describes deployments with their status and scale subresources", async () => {
  const list = await getJson(server, "/apis/apps/v1");
  expect(list).toMatchObject({ kind: "APIResourceList", apiVersion: "v1", groupVersion: "apps/v1" });
  const byName = new Map(list.resources.map((resource: Json) => [resource.name, resource]));
  expect(byName.get("deployments")).toMatchObject({
    singularName: "",
    namespaced: true,
    kind: "Deployment",
    shortNames: ["deploy"],
    categories: ["all"],
  });
  expect(byName.get("deployments/status")).toMatchObject({ kind: "Deployment" });
  expect(byName.get("deployments/scale")).toMatchObject({ group: "autoscaling", version: "v1", kind: "Scale" });
});

test("/version reports Kubernetes 1.26, also without credentials", async () => {
  const answer = await text("/version", true);
  expect(answer.status).toBe(200);
  const version = JSON.parse(answer.body);
  expect(version).toMatchObject({ major: "1", minor: "26", platform: expect.stringMatching(/^\w+\/\w+$/) });
  expect(version.gitVersion).toMatch(/^v1\.26\.\d+/);
});

test("health paths are authenticated like any other: an invalid bearer token is 401, never anonymous", async () => {
  for (const path of ["/healthz", "/readyz", "/version"]) {
    const response = await server.requestAnonymous("GET", path, { headers: { Authorization: "Bearer not-a-token" } });
    expect({ path, status: response.status }).toEqual({ path, status: 401 });
  }
});

test("/healthz, /livez and /readyz answer ok, also without credentials", async () => {
  for (const path of ["/healthz", "/livez", "/readyz"]) expect(await text(path, true)).toEqual({ status: 200, body: "ok" });
});

test("?verbose lists each check and ends with the verdict line", async () => {
  for (const endpoint of ["healthz", "livez", "readyz"]) {
    const answer = await text(`/${endpoint}?verbose`);
    expect(answer.status).toBe(200);
    const lines = answer.body.trim().split("\n");
    expect(lines).toContain("[+]ping ok");
    expect(lines.at(-1)).toBe(`${endpoint} check passed`);
  }
});

test("?exclude skips a check and verbose prints it as excluded", async () => {
  const answer = await text("/readyz?verbose&exclude=ping");
  expect(answer.status).toBe(200);
  expect(answer.body.split("\n")).toContain("[+]ping excluded: ok");
});

test("/livez/<check> and /readyz/<check> run a single check", async () => {
  expect(await text("/livez/ping")).toEqual({ status: 200, body: "ok" });
  expect(await text("/readyz/ping")).toEqual({ status: 200, body: "ok" });
  expect((await text("/readyz/no-such-check")).status).toBe(404);
});

test("/metrics counts requests in apiserver_request_total by verb, resource and code", async () => {
  await createNamespace(server, "metrics");
  await createConfigMap(server, "metrics", "counted");
  await getJson(server, "/api/v1/namespaces/metrics/configmaps");
  const answer = await text("/metrics");
  expect(answer.status).toBe(200);
  const samples = answer.body.split("\n").filter((line) => line.startsWith("apiserver_request_total{"));
  const find = (verb: string, code: string) =>
    samples.find((line) => line.includes(`verb="${verb}"`) && line.includes('resource="configmaps"') && line.includes(`code="${code}"`));
  expect(find("POST", "201")).toMatch(/ \d+$/);
  expect(find("LIST", "200")).toMatch(/ \d+$/);
  expect(answer.body).toContain("# TYPE apiserver_request_total counter");
});
