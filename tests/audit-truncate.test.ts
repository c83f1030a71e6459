/**
 * --audit-log-truncate-enabled (kube's truncate backend) and --audit-log-version: an event over
 * --audit-log-truncate-max-event-size loses its request and response objects and carries
 * audit.k8s.io/truncated: "true"; smaller ones keep them; a version other than audit.k8s.io/v1 stops start-up.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sendJson } from "./_api.ts";
import { eventually, readEvents, writePolicy } from "./_audit.ts";
import { KUBUN_BINARY, startServer, type TestServer } from "./harness.ts";

let server: TestServer;
let scratch: string;
let auditLog: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "kubun-audit-truncate-"));
  auditLog = join(scratch, "audit.log");
  await writePolicy(
    join(scratch, "policy.yaml"),
    'rules:\n- level: RequestResponse\n  resources:\n  - group: ""\n    resources: [configmaps]\n',
  );
  server = await startServer([
    "--audit-policy-file",
    join(scratch, "policy.yaml"),
    "--audit-log-path",
    auditLog,
    "--audit-log-truncate-enabled",
    "--audit-log-truncate-max-event-size",
    "8000",
    "--audit-log-version",
    "audit.k8s.io/v1",
  ]);
});

afterAll(async () => {
  await server?.stop();
  await rm(scratch, { recursive: true, force: true });
});

async function createdEvent(name: string, size: number) {
  const created = await sendJson(server, "POST", "/api/v1/namespaces/default/configmaps", {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name },
    data: { blob: "x".repeat(size) },
  });
  expect(created.status).toBe(201);
  const auditID = created.headers.get("audit-id");
  return await eventually(
    async () => (await readEvents(auditLog)).find((e) => e.auditID === auditID && e.stage === "ResponseComplete"),
    `the ResponseComplete event of ${name}`,
  );
}

test("truncate backend: an event over the maximum size keeps its metadata, loses its objects and is annotated", async () => {
  const event = await createdEvent("large", 20_000);
  expect(event.requestObject).toBeUndefined();
  expect(event.responseObject).toBeUndefined();
  expect(event.annotations["audit.k8s.io/truncated"]).toBe("true");
  expect(event.objectRef).toMatchObject({ resource: "configmaps", name: "large" });
});

test("truncate backend: an event under the maximum size is passed on whole", async () => {
  const event = await createdEvent("small", 10);
  expect(event.requestObject.data.blob).toBe("x".repeat(10));
  expect(event.annotations?.["audit.k8s.io/truncated"]).toBeUndefined();
});

test("validateGroupVersionString: --audit-log-version other than audit.k8s.io/v1 stops start-up", async () => {
  const run = Bun.spawn([
    KUBUN_BINARY,
    "--audit-policy-file",
    join(scratch, "policy.yaml"),
    "--audit-log-path",
    join(scratch, "refused.log"),
    "--audit-log-version",
    "audit.k8s.io/v1beta1",
    "--data-dir",
    join(scratch, "refused"),
  ], { stderr: "pipe" });
  expect(await run.exited).toBe(1);
  expect(await new Response(run.stderr).text()).toContain('invalid group version, allowed versions are ["audit.k8s.io/v1"]');
});
