/**
 * Discovery and non-resource paths, answered as kube-apiserver 1.26 routes them. Trailing slashes:
 * go-restful v3.9.0's tokenizePath trims every trailing slash, so its routes (/version, /api, /api/v1, /apis/<group>,
 * /apis/<group>/<version>) answer under any run of them; APIServerHandler's director hands /apis to go-restful only as
 * "/apis" or "/apis/", and PathRecorderMux's exact paths (/healthz, /livez, /readyz, /metrics, /openapi/v2) take no
 * trailing slash at all.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { rawRequest } from "./_raw-request.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.stop());

/** What identifies an answer: the status and the body's kind (or, for /version, its gitVersion's presence). */
async function answer(path: string, method = "GET"): Promise<{ path: string; status: number; kind: string }> {
  const { status, body } = await rawRequest(server, method, path);
  const parsed = (() => {
    try {
      return JSON.parse(body);
    } catch {
      return {};
    }
  })();
  return { path, status, kind: parsed.kind ?? (parsed.gitVersion ? "version.Info" : body.trim()) };
}

const table: [string, number, string][] = [
  ["/version/", 200, "version.Info"],
  ["/version//", 200, "version.Info"],
  ["/version///", 200, "version.Info"],
  ["/api/", 200, "APIVersions"],
  ["/api//", 200, "APIVersions"],
  ["/api/v1/", 200, "APIResourceList"],
  ["/api/v1//", 200, "APIResourceList"],
  ["/api/v2//", 404, "Status"],
  ["/apis/", 200, "APIGroupList"],
  ["/apis//", 404, "Status"],
  ["/apis/apps/", 200, "APIGroup"],
  ["/apis/apps//", 200, "APIGroup"],
  ["/apis/apps/v1/", 200, "APIResourceList"],
  ["/apis/apps/v1///", 200, "APIResourceList"],
  ["/apis/no.such.group//", 404, "Status"],
  ["/apis/apps/v1/namespaces/default/deployments//", 200, "DeploymentList"],
  ["/healthz/", 404, "Status"],
  ["/healthz//", 404, "Status"],
  ["/livez/", 404, "Status"],
  ["/readyz/", 404, "Status"],
  ["/metrics/", 404, "Status"],
  ["/openapi/v2/", 404, "Status"],
  ["//version", 404, "Status"],
  ["/api//v1", 404, "Status"],
];

test("tokenizePath trims trailing slashes on go-restful's routes; the director's /apis and PathRecorderMux's paths stay exact", async () => {
  const answers = [];
  for (const [path] of table) answers.push(await answer(path));
  expect(answers).toEqual(table.map(([path, status, kind]) => ({ path, status, kind })));
});

test("a HEAD and a pretty GET under a run of trailing slashes are served as the route's", async () => {
  expect((await rawRequest(server, "HEAD", "/api/v1//")).status).toBe(200);
  const pretty = await rawRequest(server, "GET", "/apis/apps/v1//?pretty=true");
  expect(pretty.status).toBe(200);
  expect(pretty.body).toStartWith('{\n  "kind": "APIResourceList"');
});

test("methods: go-restful's routes answer another method with CurlyRouter.detectRoute's 405; kube-aggregator's apisHandler and apiGroupHandler answer any method as GET", async () => {
  const table: [method: string, path: string, status: number, kind: string][] = [
    ["POST", "/version", 405, "Status"],
    ["POST", "/version//", 405, "Status"],
    ["POST", "/api", 405, "Status"],
    ["DELETE", "/api/", 405, "Status"],
    ["POST", "/api/v1", 405, "Status"],
    ["POST", "/api/v9", 404, "Status"],
    ["POST", "/apis/apps/v1", 405, "Status"],
    ["PUT", "/apis/apps/v1/", 405, "Status"],
    ["POST", "/apis/apps/v9", 404, "Status"],
    ["PUT", "/apis", 200, "APIGroupList"],
    ["POST", "/apis/", 200, "APIGroupList"],
    ["POST", "/apis/apps", 200, "APIGroup"],
    ["PATCH", "/apis/apps/", 200, "APIGroup"],
    ["POST", "/apis/no.such.group", 404, "Status"],
  ];
  const answers = [];
  for (const [method, path] of table) answers.push({ method, ...(await answer(path, method)) });
  expect(answers).toEqual(table.map(([method, path, status, kind]) => ({ method, path, status, kind })));
  const refused = JSON.parse((await rawRequest(server, "POST", "/version")).body);
  expect({ reason: refused.reason, message: refused.message }).toEqual({
    reason: "MethodNotAllowed",
    message: "the server does not allow this method on the requested resource",
  });
});
