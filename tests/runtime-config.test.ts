/**
 * --runtime-config (APIEnablementOptions, MergeAPIResourceConfigs): turned-off group/versions and resources vanish
 * from kubectl api-resources, discovery and OpenAPI and answer 404; admissionregistration.k8s.io/v1=false takes the
 * webhook configuration types away and the server still starts; bad keys stop start-up with kube's message.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { KUBUN_BINARY, startServer, type TestServer } from "./harness.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startServer(["--runtime-config", "batch/v1=false,apps/v1/deployments=false,admissionregistration.k8s.io/v1=false"]);
});

afterAll(async () => {
  await server?.stop();
});

test("kubectl api-resources no longer lists the turned-off group, resource and webhook configuration types", async () => {
  const result = await server.kubectl(["api-resources", "-o", "name"]);
  expect(result.code).toBe(0);
  const names = result.stdout.trim().split("\n");
  for (const gone of ["jobs.batch", "cronjobs.batch", "deployments.apps", "validatingwebhookconfigurations.admissionregistration.k8s.io"]) {
    expect(names).not.toContain(gone);
  }
  expect(names).toContain("replicasets.apps");
  expect(names).toContain("pods");
});

test("a turned-off version answers 404 for its discovery and its resources", async () => {
  expect((await server.request("GET", "/apis/batch/v1")).status).toBe(404);
  expect((await server.request("GET", "/apis/batch")).status).toBe(404);
  const jobs = await server.request("GET", "/apis/batch/v1/namespaces/default/jobs");
  expect(jobs.status).toBe(404);
  expect((await jobs.json()).kind).toBe("Status");
  expect((await server.request("GET", "/apis/apps/v1/namespaces/default/deployments")).status).toBe(404);
  expect((await server.request("GET", "/apis/apps/v1/namespaces/default/replicasets")).status).toBe(200);
});

test("OpenAPI v2 and v3 leave the turned-off version out", async () => {
  const v3 = await (await server.request("GET", "/openapi/v3")).json();
  expect(Object.keys(v3.paths)).not.toContain("apis/batch/v1");
  expect(Object.keys(v3.paths)).toContain("apis/apps/v1");
  const v2 = await (await server.request("GET", "/openapi/v2", { headers: { Accept: "application/json" } })).json();
  const paths = Object.keys(v2.paths);
  expect(paths.some((path) => path.startsWith("/apis/batch/v1/"))).toBe(false);
  expect(paths.some((path) => path.includes("/deployments"))).toBe(false);
  expect(paths.some((path) => path.includes("/replicasets"))).toBe(true);
});

test("APIEnablementOptions.Validate: an unknown group stops start-up with `unknown api groups`", async () => {
  const run = Bun.spawn([KUBUN_BINARY, "--runtime-config", "example.com/v1=true", "--data-dir", `${server.dataDir}-refused`], {
    stderr: "pipe",
  });
  expect(await run.exited).toBe(1);
  expect(await new Response(run.stderr).text()).toContain("Error: unknown api groups example.com");
});

test("kubun's own limit: core v1 cannot be turned off (its bootstrap writes core objects)", async () => {
  const run = Bun.spawn([KUBUN_BINARY, "--runtime-config", "api/all=false,apps/v1=true", "--data-dir", `${server.dataDir}-core`], {
    stderr: "pipe",
  });
  expect(await run.exited).toBe(1);
  expect(await new Response(run.stderr).text()).toContain("Error: --runtime-config: kubun cannot run with core v1 resources turned off");
});
