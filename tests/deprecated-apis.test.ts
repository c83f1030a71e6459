/**
 * Requests to a version kube 1.26 marks deprecated (flowcontrol.apiserver.k8s.io/v1beta2, prerelease-lifecycle-gen
 * deprecated=1.26 removed=1.29): kube's Warning in kubectl's output, the k8s.io/deprecated and
 * k8s.io/removed-release audit annotations, and the apiserver_requested_deprecated_apis gauge; GA versions get none.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually, readEvents, writePolicy } from "./_audit.ts";
import { KUBUN_BINARY, startServer, type TestServer } from "./harness.ts";

const WARNING =
  "flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema is deprecated in v1.26+, unavailable in v1.29+; use flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema";
let server: TestServer;
let scratch: string;
let auditLog: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "kubun-deprecated-"));
  auditLog = join(scratch, "audit.log");
  await writePolicy(join(scratch, "policy.yaml"), "rules:\n- level: Metadata\n");
  server = await startServer(["--audit-policy-file", join(scratch, "policy.yaml"), "--audit-log-path", auditLog]);
});

afterAll(async () => {
  await server?.stop();
  await rm(scratch, { recursive: true, force: true });
});

test("deprecation WarningMessage reaches kubectl's output for a v1beta2 FlowSchema list", async () => {
  const result = await server.kubectl(["get", "flowschemas.v1beta2.flowcontrol.apiserver.k8s.io"]);
  expect(result.code).toBe(0);
  expect(result.stderr).toContain(`Warning: ${WARNING}`);
});

test("a GA version gets no deprecation warning", async () => {
  const response = await server.request("GET", "/api/v1/namespaces");
  expect(response.headers.get("warning")).toBeNull();
});

test("MonitorRequest: apiserver_requested_deprecated_apis is 1 for the requested deprecated resource", async () => {
  await server.request("GET", "/apis/flowcontrol.apiserver.k8s.io/v1beta2/prioritylevelconfigurations");
  const metrics = await (await server.request("GET", "/metrics")).text();
  for (const resource of ["flowschemas", "prioritylevelconfigurations"]) {
    expect(metrics).toContain(
      `apiserver_requested_deprecated_apis{group="flowcontrol.apiserver.k8s.io",version="v1beta2",resource="${resource}",subresource="",removed_release="1.29"} 1`,
    );
  }
});

test("the audit event carries k8s.io/deprecated and k8s.io/removed-release", async () => {
  const response = await server.request("GET", "/apis/flowcontrol.apiserver.k8s.io/v1beta2/flowschemas");
  expect(response.headers.get("warning")).toBe(`299 - "${WARNING}"`);
  const auditID = response.headers.get("audit-id");
  const event = await eventually(
    async () => (await readEvents(auditLog)).find((e) => e.auditID === auditID && e.stage === "ResponseComplete"),
    "the list's ResponseComplete event",
  );
  expect(event.annotations).toMatchObject({ "k8s.io/deprecated": "true", "k8s.io/removed-release": "1.29" });
});

test("--show-hidden-metrics-for-version other than 1.25 stops start-up with component-base's message", async () => {
  const run = Bun.spawn([KUBUN_BINARY, "--show-hidden-metrics-for-version", "1.20", "--data-dir", join(scratch, "refused")], {
    stderr: "pipe",
  });
  expect(await run.exited).toBe(1);
  expect(await new Response(run.stderr).text()).toContain(
    "Error: --show-hidden-metrics-for-version must be omitted or have the value '1.25'. Only the previous minor version is allowed",
  );
});
