/**
 * --feature-gates with kube-apiserver 1.26's gates (component-base featureGate.Set/SetFromMap): bad settings stop
 * start-up with kube's error, GA gates set explicitly are logged with kube's warning, and gates switch what kubun
 * implements (APIResponseCompression here).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asAdminOnDisk, runKubun } from "./_kubun-process.ts";

let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "kubun-gates-"));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function startUpFailure(flag: string): Promise<{ exitCode: number | null; log: string }> {
  const answer = await runKubun(join(scratch, "refused"), [flag]);
  if ("started" in answer) {
    await answer.started.stop();
    throw new Error(`kubun started with ${flag}`);
  }
  return answer;
}

test("SetFromMap: an unknown gate stops start-up with `unrecognized feature gate`", async () => {
  const answer = await startUpFailure("--feature-gates=NoSuchGate=true");
  expect(answer.exitCode).toBe(1);
  expect(answer.log).toContain(
    'Error: invalid argument "NoSuchGate=true" for "--feature-gates" flag: unrecognized feature gate: NoSuchGate',
  );
});

test("SetFromMap: a gate's Go constant or a gate kube only has from 1.27 is unrecognized", async () => {
  for (const name of ["CPUCFSQuotaPeriod", "NewVolumeManagerReconstruction"]) {
    const answer = await startUpFailure(`--feature-gates=${name}=true`);
    expect(answer.exitCode).toBe(1);
    expect(answer.log).toContain(`unrecognized feature gate: ${name}`);
  }
});

test("SetFromMap: a locked GA gate set away from its default stops start-up", async () => {
  const answer = await startUpFailure("--feature-gates=DryRun=false");
  expect(answer.exitCode).toBe(1);
  expect(answer.log).toContain("cannot set feature gate DryRun to false, feature is locked to true");
});

test("featureGate.Set: a pair without a bool stops start-up", async () => {
  const answer = await startUpFailure("--feature-gates=APIServerIdentity");
  expect(answer.log).toContain("missing bool value for APIServerIdentity");
});

test("SetFromMap warns about a GA gate set explicitly; APIResponseCompression, ServerSideFieldValidation, OpenAPIV3, RemainingItemCount and APIPriorityAndFairness switch kubun off", async () => {
  const dataDir = join(scratch, "served");
  const answer = await runKubun(dataDir, [
    "--feature-gates=ServerSideApply=true,CustomCPUCFSQuotaPeriod=true,ConsistentHTTPGetHandlers=false,APIResponseCompression=false,ServerSideFieldValidation=false,OpenAPIV3=false,RemainingItemCount=false,APIPriorityAndFairness=false",
  ]);
  if (!("started" in answer)) throw new Error(`kubun did not start:\n${answer.log}`);
  const server = answer.started;
  try {
    expect(server.log()).toContain("Setting GA feature gate ServerSideApply=true. It will be removed in a future release.");
    expect(server.log()).toContain("Setting GA feature gate ConsistentHTTPGetHandlers=false. It will be removed in a future release.");
    for (const name of ["a", "b", "c"]) {
      const created = await asAdminOnDisk(dataDir, server.url, "/api/v1/namespaces/default/configmaps", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { blob: "x".repeat(60 * 1024) } }),
      });
      expect(created.status).toBe(201);
    }
    const list = await asAdminOnDisk(dataDir, server.url, "/api/v1/namespaces/default/configmaps", {
      headers: { "Accept-Encoding": "gzip" },
    });
    expect(list.status).toBe(200);
    // Compression would have added Vary: Accept-Encoding (deferredResponseWriter).
    expect(list.headers.get("vary")).toBeNull();
    expect(list.headers.get("content-encoding")).toBeNull();
    expect((await list.json()).items.length).toBeGreaterThanOrEqual(3);
    // GetList reports remainingItemCount only with the RemainingItemCount gate; the continue token stays.
    const page = await (await asAdminOnDisk(dataDir, server.url, "/api/v1/namespaces/default/configmaps?limit=1")).json();
    expect(page.metadata.continue).toBeTruthy();
    expect(page.metadata.remainingItemCount).toBeUndefined();

    // fieldValidation(): with the gate off even Strict means Ignore, so the unknown field is dropped, not refused.
    const strict = await asAdminOnDisk(dataDir, server.url, "/api/v1/namespaces/default/configmaps?fieldValidation=Strict", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "strict" }, bogus: 1 }),
    });
    expect(strict.status).toBe(201);
    expect(strict.headers.get("warning")).toBeNull();
    expect((await strict.json()).bogus).toBeUndefined();
    // ValidateFieldValidation still refuses a directive that does not exist.
    const invalid = await asAdminOnDisk(dataDir, server.url, "/api/v1/namespaces/default/configmaps?fieldValidation=Bogus", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "bogus" } }),
    });
    expect(invalid.status).toBe(422);

    // Without OpenAPIV3 there is no /openapi/v3; /openapi/v2 stays.
    expect((await asAdminOnDisk(dataDir, server.url, "/openapi/v3")).status).toBe(404);
    expect((await asAdminOnDisk(dataDir, server.url, "/openapi/v3/api/v1")).status).toBe(404);
    expect((await asAdminOnDisk(dataDir, server.url, "/openapi/v2")).status).toBe(200);

    // Without APIPriorityAndFairness kube builds no APF filter (max-in-flight instead): no flow schema headers.
    const classified = await asAdminOnDisk(dataDir, server.url, "/api/v1/namespaces");
    expect(classified.status).toBe(200);
    expect(classified.headers.get("X-Kubernetes-PF-FlowSchema-UID")).toBeNull();
  } finally {
    await server.stop();
  }
});
