/**
 * GET / (genericapiserver routes.Index → IndexLister.ServeHTTP): 200 with `{"paths": [...]}`, the sorted listed paths
 * of the server (APIServerHandler.ListedPaths), written by WriteRawJSON. RBAC's bootstrap roles give `/` to nobody
 * (system:discovery and system:public-info-viewer name other paths), so only a user granted it may read the index.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createUser } from "./_users.ts";
import { startServer, type TestServer } from "./harness.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startServer(["--authorization-mode", "RBAC"]);
});
afterAll(() => server?.stop());

test("kubectl get --raw / lists the served paths sorted, as kube-apiserver's index does", async () => {
  const result = await server.kubectl(["get", "--raw", "/"]);
  expect(result.code).toBe(0);
  const { paths } = JSON.parse(result.stdout);
  expect(paths).toEqual([...paths].sort());
  expect(new Set(paths).size).toBe(paths.length);
  const discovery = ["/api", "/api/v1", "/apis", "/apis/", "/apis/apps", "/apis/apps/v1", "/apis/autoscaling/v2"];
  const others = ["/healthz", "/healthz/ping", "/livez", "/metrics", "/openapi/v2", "/readyz", "/readyz/shutdown", "/version"];
  expect(paths).toEqual(expect.arrayContaining([...discovery, ...others]));
  // WriteRawJSON indents with two spaces.
  expect(result.stdout.startsWith('{\n  "paths": [\n    "/')).toBe(true);
});

test("/index.html answers the same index; any method is answered as GET", async () => {
  const root = await (await server.request("GET", "/")).json();
  const indexHtml = await server.request("GET", "/index.html");
  expect(indexHtml.status).toBe(200);
  expect(indexHtml.headers.get("content-type")).toBe("application/json");
  expect(await indexHtml.json()).toEqual(root);
  const posted = await server.request("POST", "/");
  expect(posted.status).toBe(200);
  expect(await posted.json()).toEqual(root);
});

test("a group served by a new CRD is listed at once", async () => {
  const crd = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.index.example.com" },
    spec: {
      group: "index.example.com",
      scope: "Namespaced",
      names: { plural: "widgets", singular: "widget", kind: "Widget" },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } } }],
    },
  };
  const created = await server.kubectl(["create", "-f", "-"], { stdin: JSON.stringify(crd) });
  expect(created.code).toBe(0);
  let paths: string[] = [];
  for (let attempt = 0; attempt < 50 && !paths.includes("/apis/index.example.com/v1"); attempt++) {
    paths = (await (await server.request("GET", "/")).json()).paths;
    if (!paths.includes("/apis/index.example.com/v1")) await Bun.sleep(100);
  }
  expect(paths).toContain("/apis/index.example.com");
  expect(paths).toContain("/apis/index.example.com/v1");
});

test("anonymous and users without a grant get kube's 403 for /; system:discovery does not cover it", async () => {
  const anonymous = await server.requestAnonymous("GET", "/");
  expect(anonymous.status).toBe(403);
  expect((await anonymous.json()).message).toBe('forbidden: User "system:anonymous" cannot get path "/"');
  const user = await createUser(server, "index-reader");
  const denied = await user.kubectl(["get", "--raw", "/"]);
  expect(denied.code).toBe(1);
  expect(denied.stderr).toContain("Forbidden");
  const version = await user.kubectl(["get", "--raw", "/version"]);
  expect(version.code).toBe(0);
});
