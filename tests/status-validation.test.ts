/**
 * Writes through the status subresource are validated as kube's <kind>StatusStrategy.ValidateUpdate does
 * (ValidateDeploymentStatusUpdate, ValidateReplicaSetStatusUpdate, ValidateStatefulSetStatusUpdate,
 * ValidateDaemonSetStatusUpdate, ValidateReplicationControllerStatus, ValidateJobUpdateStatus,
 * ValidateHorizontalPodAutoscalerStatusUpdate, ValidatePodDisruptionBudgetStatusUpdate): a bad status is a 422 that
 * changes nothing; a good one is stored.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, expectStatus, getJson, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "status-validation";
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
});
afterAll(async () => {
  await server?.stop();
});

const podTemplate = (labels: Record<string, string>, restartPolicy = "Always") => ({
  metadata: { labels },
  spec: { restartPolicy, containers: [{ name: "c", image: "busybox" }] },
});
const replicated = (name: string) => ({
  metadata: { name },
  spec: { replicas: 0, selector: { matchLabels: { app: name } }, template: podTemplate({ app: name }) },
});

const mergePatch = (path: string, body: unknown) => sendJson(server, "PATCH", path, body, "application/merge-patch+json");

test("kubectl patch --subresource=status of a Deployment with a negative replicas is refused with kube's message", async () => {
  expect((await sendJson(server, "POST", `/apis/apps/v1/namespaces/${NS}/deployments`, replicated("web"))).status).toBe(201);
  const result = await server.kubectl([
    "-n",
    NS,
    "patch",
    "deploy",
    "web",
    "--subresource=status",
    "--type=merge",
    "-p",
    '{"status":{"replicas":-5}}',
  ]);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(`The Deployment "web" is invalid:`);
  expect(result.stderr).toContain("status.replicas: Invalid value: -5: must be greater than or equal to 0");
  const stored = await getJson(server, `/apis/apps/v1/namespaces/${NS}/deployments/web`);
  expect(stored.status?.replicas ?? 0).toBe(0);
});

test("status writes of apps, core, batch, autoscaling and policy kinds answer 422 Invalid at the status field", async () => {
  const cases: { path: string; body: unknown; status: unknown; message: string }[] = [
    {
      path: `/apis/apps/v1/namespaces/${NS}/replicasets`,
      body: replicated("rs"),
      status: { replicas: 1, readyReplicas: 1, availableReplicas: 2 },
      message: "status.availableReplicas: Invalid value: 2: cannot be greater than status.replicas",
    },
    {
      path: `/apis/apps/v1/namespaces/${NS}/statefulsets`,
      body: { ...replicated("sts"), spec: { ...replicated("sts").spec, serviceName: "sts" } },
      status: { replicas: 1, currentReplicas: 3 },
      message: "status.currentReplicas: Invalid value: 3: cannot be greater than status.replicas",
    },
    {
      path: `/apis/apps/v1/namespaces/${NS}/daemonsets`,
      body: { metadata: { name: "ds" }, spec: { selector: { matchLabels: { app: "ds" } }, template: podTemplate({ app: "ds" }) } },
      status: { numberReady: -1 },
      message: "status.numberReady: Invalid value: -1: must be greater than or equal to 0",
    },
    {
      path: `/api/v1/namespaces/${NS}/replicationcontrollers`,
      body: { metadata: { name: "rc" }, spec: { replicas: 0, selector: { app: "rc" }, template: podTemplate({ app: "rc" }) } },
      status: { replicas: 0, fullyLabeledReplicas: 1 },
      message: "status.fullyLabeledReplicas: Invalid value: 1: cannot be greater than status.replicas",
    },
    {
      path: `/apis/batch/v1/namespaces/${NS}/jobs`,
      body: { metadata: { name: "job" }, spec: { suspend: true, template: podTemplate({}, "Never") } },
      status: { failed: -1 },
      message: "status.failed: Invalid value: -1: must be greater than or equal to 0",
    },
    {
      path: `/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers`,
      body: {
        metadata: { name: "hpa" },
        spec: { scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web" }, maxReplicas: 3 },
      },
      status: { desiredReplicas: -1 },
      message: "status.desiredReplicas: Invalid value: -1: must be greater than or equal to 0",
    },
    {
      path: `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`,
      body: { metadata: { name: "pdb" }, spec: { minAvailable: 1, selector: { matchLabels: { app: "none" } } } },
      status: { disruptionsAllowed: -1 },
      message: "status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0",
    },
    {
      path: `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`,
      body: { metadata: { name: "pdb-conditions" }, spec: { minAvailable: 1, selector: { matchLabels: { app: "none" } } } },
      status: { conditions: [{ type: "DisruptionAllowed", status: "Maybe", reason: "R", lastTransitionTime: "2026-01-01T00:00:00Z" }] },
      message: `status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"`,
    },
  ];
  for (const { path, body, status, message } of cases) {
    const created = await sendJson(server, "POST", path, body);
    expect({ path, status: created.status }).toEqual({ path, status: 201 });
    const name = created.body.metadata.name;
    const answer = await mergePatch(`${path}/${name}/status`, { status });
    expectStatus(answer, 422, "Invalid");
    expect(answer.body.message).toContain(message);
    // Controllers may write the status meanwhile (kubun runs kube-controller-manager's loops); the refused one is not stored.
    const stored = await getJson(server, `${path}/${name}`);
    expect({ path, status: stored.status ?? {} }).not.toMatchObject({ path, status });
  }
});

test("a Deployment's status.collisionCount cannot be decremented; a valid status write is stored", async () => {
  const path = `/apis/apps/v1/namespaces/${NS}/deployments`;
  expect((await sendJson(server, "POST", path, replicated("collide"))).status).toBe(201);
  const raised = await mergePatch(`${path}/collide/status`, { status: { collisionCount: 2 } });
  expect(raised.status).toBe(200);
  expect(raised.body.status.collisionCount).toBe(2);
  const lowered = await mergePatch(`${path}/collide/status`, { status: { collisionCount: 1 } });
  expectStatus(
    lowered,
    422,
    "Invalid",
    `Deployment.apps "collide" is invalid: status.collisionCount: Invalid value: 1: cannot be decremented`,
  );
});
