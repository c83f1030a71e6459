// deno-lint-ignore-file no-explicit-any -- decoded JSON is read by path in assertions
/** kubectl server-side apply against kubun: create, re-apply, a conflict between managers, --force-conflicts, and the switch from client-side apply. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { parse } from "yaml";
import { createNamespace, expectStatus, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, "ssa");
});
afterAll(async () => {
  await server?.stop();
});

function deploymentYaml(replicas: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ssa
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.25
`;
}

async function applyServerSide(yaml: string, extra: string[] = []) {
  return await server.kubectl(["apply", "--server-side", "-f", "-", ...extra], { stdin: yaml });
}

type Entry = { manager: string; operation: string; fieldsV1: Record<string, unknown> };

async function managedFields(kind: string, name: string): Promise<{ object: Record<string, any>; entries: Entry[] }> {
  const result = await server.kubectl(["get", kind, name, "-n", "ssa", "-o", "yaml", "--show-managed-fields"]);
  expect(result.code).toBe(0);
  const object = parse(result.stdout);
  return { object, entries: object.metadata.managedFields };
}

test("apply --server-side creates, re-applies, conflicts with another manager, and --force-conflicts moves ownership", async () => {
  const created = await applyServerSide(deploymentYaml(1));
  expect({ code: created.code, stdout: created.stdout.trim() }).toEqual({ code: 0, stdout: "deployment.apps/web serverside-applied" });
  let state = await managedFields("deployment", "web");
  expect(state.entries.find((e) => e.manager === "kubectl")).toMatchObject({
    operation: "Apply",
    fieldsV1: { "f:spec": { "f:replicas": {} } },
  });

  expect((await applyServerSide(deploymentYaml(2))).code).toBe(0);
  expect((await managedFields("deployment", "web")).object.spec.replicas).toBe(2);

  const conflict = await applyServerSide(deploymentYaml(5), ["--field-manager=other"]);
  expect(conflict.code).not.toBe(0);
  expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas');
  expect(conflict.stderr).toContain("--force-conflicts");

  expect((await applyServerSide(deploymentYaml(5), ["--field-manager=other", "--force-conflicts"])).code).toBe(0);
  state = await managedFields("deployment", "web");
  expect(state.object.spec.replicas).toBe(5);
  const other = state.entries.find((e) => e.manager === "other")!;
  const kubectl = state.entries.find((e) => e.manager === "kubectl")!;
  expect(other.fieldsV1["f:spec"]).toHaveProperty("f:replicas");
  expect(kubectl.fieldsV1["f:spec"]).not.toHaveProperty("f:replicas");
  // Both applied the same container: shared ownership, no conflict.
  expect(kubectl.fieldsV1["f:spec"]).toHaveProperty("f:template");
});

test("apply without fieldManager is refused, and a body carrying managedFields is a 400", async () => {
  const path = "/apis/apps/v1/namespaces/ssa/deployments/web";
  const body = parse(deploymentYaml(1));
  expectStatus(
    await sendJson(server, "PATCH", path, body, "application/apply-patch+yaml"),
    422,
    "Invalid",
    /fieldManager: Required value: is required for apply patch/,
  );
  body.metadata.managedFields = [];
  expectStatus(
    await sendJson(server, "PATCH", `${path}?fieldManager=x`, body, "application/apply-patch+yaml"),
    400,
    "BadRequest",
    "metadata.managedFields must be nil",
  );
});

test("writes record Update entries named after kubectl's command, and a created-by-apply object answers 201", async () => {
  const created = await server.kubectl(["create", "configmap", "made", "-n", "ssa", "--from-literal=a=1"]);
  expect(created.code).toBe(0);
  expect((await managedFields("configmap", "made")).entries).toMatchObject([
    { manager: "kubectl-create", operation: "Update", fieldsV1: { "f:data": { ".": {}, "f:a": {} } } },
  ]);
  const answer = await sendJson(server, "PATCH", "/api/v1/namespaces/ssa/configmaps/fresh?fieldManager=tool", {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "fresh" },
    data: { k: "v" },
  }, "application/apply-patch+yaml");
  expect(answer.status).toBe(201);
  expect(answer.body.metadata.managedFields).toMatchObject([{
    manager: "tool",
    operation: "Apply",
    fieldsV1: { "f:data": { "f:k": {} } },
  }]);
});

test("apply --server-side takes over the fields of an object last written by client-side apply", async () => {
  const configMap = (value: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: switch\n  namespace: ssa\ndata:\n  key: ${value}\n`;
  expect((await server.kubectl(["apply", "-f", "-"], { stdin: configMap("one") })).code).toBe(0);
  let state = await managedFields("configmap", "switch");
  expect(state.entries.map((e) => [e.manager, e.operation])).toEqual([["kubectl-client-side-apply", "Update"]]);

  const switched = await server.kubectl(["apply", "--server-side", "-f", "-"], { stdin: configMap("two") });
  expect({ code: switched.code, stderr: switched.stderr }).toEqual({ code: 0, stderr: "" });
  state = await managedFields("configmap", "switch");
  expect(state.object.data).toEqual({ key: "two" });
  expect(state.entries.find((e) => e.manager === "kubectl")).toMatchObject({ operation: "Apply", fieldsV1: { "f:data": { "f:key": {} } } });
  expect(state.entries.map((e) => e.manager)).not.toContain("kubectl-client-side-apply");
  expect(JSON.parse(state.object.metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"]).data).toEqual({ key: "two" });
});
