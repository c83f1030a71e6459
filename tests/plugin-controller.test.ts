/**
 * End-to-end: --controller-plugin runs a TypeScript controller on the controller runtime as its own service
 * account (kube-system/<name>, created like kube's SAControllerClientBuilder does for its loops). Its requests
 * are authorized like any client's: until the operator binds it a role, RBAC refuses its writes; once bound,
 * it reconciles the label onto existing and new ConfigMaps.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNamespace } from "./_api.ts";
import { eventually } from "./_audit.ts";
import { startServer, type TestServer } from "./harness.ts";

const PLUGIN = `
const CONFIGMAPS = { group: "", version: "v1", resource: "configmaps" };
export default () => ({
  name: "configmap-labeller",
  watches: [CONFIGMAPS],
  async reconcile(request, { client }) {
    if (request.namespace !== "labelled" || !request.object || request.object.metadata.labels?.["example.dev/reconciled"]) return;
    await client.update({ ...CONFIGMAPS, namespace: request.namespace, name: request.name }, (current) => ({
      ...current,
      metadata: { ...current.metadata, labels: { ...current.metadata.labels, "example.dev/reconciled": "true" } },
    }));
  },
});
`;

const ACCOUNT = "system:serviceaccount:kube-system:configmap-labeller";
let server: TestServer;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "kubun-controller-plugin-"));
  await writeFile(join(dir, "labeller.ts"), PLUGIN);
  server = await startServer(["--authorization-mode=Node,RBAC", `--controller-plugin=${join(dir, "labeller.ts")}`]);
  await createNamespace(server, "labelled");
});
afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

async function label(name: string): Promise<string> {
  const result = await server.kubectl([
    "get",
    "configmap",
    name,
    "-n",
    "labelled",
    "-o",
    "jsonpath={.metadata.labels.example\\.dev/reconciled}",
  ]);
  expect(result.code).toBe(0);
  return result.stdout;
}

async function kubectlOk(args: string[]): Promise<void> {
  const result = await server.kubectl(args);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
}

test("the plugin runs as its own service account, which RBAC refuses until the operator binds it", async () => {
  await kubectlOk(["get", "serviceaccount", "configmap-labeller", "-n", "kube-system"]);
  await kubectlOk(["create", "configmap", "before-binding", "-n", "labelled"]);
  await eventually(
    async () =>
      server.log().includes(`User "${ACCOUNT}" cannot update resource "configmaps" in API group "" in the namespace "labelled"`) ||
      undefined,
    "the refused write in the log",
  );
  expect(await label("before-binding")).toBe("");
});

test("once bound, the plugin reconciles the label onto the waiting ConfigMap and new ones, as its field manager", async () => {
  await kubectlOk(["create", "clusterrole", "configmap-labeller", "--verb=get,list,watch,update", "--resource=configmaps"]);
  await kubectlOk([
    "create",
    "clusterrolebinding",
    "configmap-labeller",
    "--clusterrole=configmap-labeller",
    "--serviceaccount=kube-system:configmap-labeller",
  ]);
  expect(await eventually(async () => (await label("before-binding")) || undefined, "the retried reconcile")).toBe("true");
  await kubectlOk(["create", "configmap", "after-binding", "-n", "labelled"]);
  expect(await eventually(async () => (await label("after-binding")) || undefined, "the new ConfigMap's reconcile")).toBe("true");
  const managers = await server.kubectl([
    "get",
    "configmap",
    "after-binding",
    "-n",
    "labelled",
    "--show-managed-fields",
    "-o",
    "jsonpath={.metadata.managedFields[*].manager}",
  ]);
  expect(managers.stdout.split(" ")).toContain("configmap-labeller");
});
