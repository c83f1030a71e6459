/** kubectl against kubun: create, get in every output format, delete, discovery commands, raw health. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "yaml";
import { createNamespace } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";

const TESTDATA = join(import.meta.dir, "testdata");
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

/** Creates the object in a testdata YAML file with a plain HTTP POST of the YAML. */
async function createFromFile(namespace: string, file: string): Promise<void> {
  const yaml = await readFile(join(TESTDATA, file), "utf8");
  const { apiVersion, kind } = parse(yaml);
  const prefix = apiVersion === "v1" ? "/api/v1" : `/apis/${apiVersion}`;
  const response = await server.request("POST", `${prefix}/namespaces/${namespace}/${kind.toLowerCase()}s`, {
    body: yaml,
    headers: { "Content-Type": "application/yaml" },
  });
  expect({ file, status: response.status }).toEqual({ file, status: 201 });
}

test("kubectl create namespace creates an Active namespace", async () => {
  expect(await kubectlOk(server, ["create", "namespace", "crud-ns"])).toBe("namespace/crud-ns created\n");
  const namespace = JSON.parse(await kubectlOk(server, ["get", "namespace", "crud-ns", "-o", "json"]));
  expect(namespace).toMatchObject({ apiVersion: "v1", kind: "Namespace", metadata: { name: "crud-ns" }, status: { phase: "Active" } });
});

test("kubectl create -f creates a ConfigMap, a Deployment and a Secret from YAML files", async () => {
  await createNamespace(server, "crud-files");
  const files = ["configmap.yaml", "deployment.yaml", "secret.yaml"].flatMap((file) => ["-f", join(TESTDATA, file)]);
  const stdout = await kubectlOk(server, ["create", "-n", "crud-files", ...files]);
  expect(stdout.trim().split("\n").sort()).toEqual([
    "configmap/app-config created",
    "deployment.apps/web created",
    "secret/db-credentials created",
  ]);

  const deployment = JSON.parse(await kubectlOk(server, ["get", "deployment", "web", "-n", "crud-files", "-o", "json"]));
  expect(deployment).toMatchObject({ apiVersion: "apps/v1", kind: "Deployment", spec: { replicas: 2 }, metadata: { generation: 1 } });
  const secret = JSON.parse(await kubectlOk(server, ["get", "secret", "db-credentials", "-n", "crud-files", "-o", "json"]));
  // stringData is write-only: the server folds it into data.
  expect(secret.data).toEqual({ username: btoa("admin"), password: btoa("s3cr3t") });
  expect(secret.stringData).toBeUndefined();
});

test("kubectl create -f of an existing object fails with AlreadyExists", async () => {
  await createNamespace(server, "crud-exists");
  const create = ["create", "-n", "crud-exists", "-f", join(TESTDATA, "configmap.yaml")];
  await kubectlOk(server, create);
  const again = await server.kubectl(create);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain("Error from server (AlreadyExists): error when creating");
  expect(again.stderr).toContain('configmaps "app-config" already exists');
});

test("kubectl get -o json and -o yaml print the stored object", async () => {
  await createNamespace(server, "crud-get");
  await createFromFile("crud-get", "configmap.yaml");
  const asJson = JSON.parse(await kubectlOk(server, ["get", "configmap", "app-config", "-n", "crud-get", "-o", "json"]));
  expect(asJson).toMatchObject({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "app-config", namespace: "crud-get", labels: { app: "web" } },
  });
  expect(asJson.data).toEqual({ greeting: "hello", "settings.ini": "[server]\nport = 8080\n" });
  expect(asJson.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
  expect(asJson.metadata.resourceVersion).toMatch(/^\d+$/);

  const asYaml = parse(await kubectlOk(server, ["get", "configmap", "app-config", "-n", "crud-get", "-o", "yaml"]));
  expect(asYaml).toEqual(asJson);
});

test("kubectl get prints kube's table columns for configmaps by default", async () => {
  await createNamespace(server, "crud-table");
  await createFromFile("crud-table", "configmap.yaml");
  const table = (await kubectlOk(server, ["get", "configmap", "app-config", "-n", "crud-table"])).trim().split("\n");
  expect(table[0]).toMatch(/^NAME\s+DATA\s+AGE$/);
  expect(table[1]).toMatch(/^app-config\s+2\s+\d+s$/);
});

test("kubectl get of a list prints every object, wide columns included for deployments", async () => {
  await createNamespace(server, "crud-list");
  await createFromFile("crud-list", "deployment.yaml");
  const rows = (await kubectlOk(server, ["get", "deployments", "-n", "crud-list", "-o", "wide"])).trim().split("\n");
  expect(rows[0]).toMatch(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR$/);
  // No nodes run the pods, so none is ready; UP-TO-DATE counts the pods the deployment controller made so far.
  expect(rows[1]).toMatch(/^web\s+0\/2\s+[0-2]\s+0\s+\d+s\s+nginx\s+nginx:1\.25\s+app=web$/);
});

test("kubectl delete removes the object and a later get answers NotFound", async () => {
  await createNamespace(server, "crud-delete");
  await createFromFile("crud-delete", "configmap.yaml");
  expect(await kubectlOk(server, ["delete", "configmap", "app-config", "-n", "crud-delete"])).toBe('configmap "app-config" deleted\n');
  const gone = await server.kubectl(["get", "configmap", "app-config", "-n", "crud-delete"]);
  expect(gone.code).toBe(1);
  expect(gone.stderr.trim()).toBe('Error from server (NotFound): configmaps "app-config" not found');
});

test("kubectl api-resources lists the built-in resources with short names, group versions and kinds", async () => {
  const stdout = await kubectlOk(server, ["api-resources"]);
  expect(stdout.split("\n")[0]).toMatch(/^NAME\s+SHORTNAMES\s+APIVERSION\s+NAMESPACED\s+KIND$/);
  expect(stdout).toMatch(/^pods\s+po\s+v1\s+true\s+Pod$/m);
  expect(stdout).toMatch(/^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m);
  expect(stdout).toMatch(/^namespaces\s+ns\s+v1\s+false\s+Namespace$/m);
  expect(stdout).toMatch(/^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m);
  expect(stdout).toMatch(/^leases\s+coordination\.k8s\.io\/v1\s+true\s+Lease$/m);
});

test("kubectl api-versions lists the core and named group versions", async () => {
  const versions = (await kubectlOk(server, ["api-versions"])).trim().split("\n");
  for (const expected of ["v1", "apps/v1", "batch/v1", "coordination.k8s.io/v1", "rbac.authorization.k8s.io/v1"]) {
    expect(versions).toContain(expected);
  }
});

test("kubectl get --raw /healthz?verbose prints every check and the verdict", async () => {
  const stdout = await kubectlOk(server, ["get", "--raw", "/healthz?verbose"]);
  const lines = stdout.trim().split("\n");
  expect(lines).toContain("[+]ping ok");
  expect(lines.at(-1)).toBe("healthz check passed");
  for (const line of lines.slice(0, -1)) expect(line).toMatch(/^\[\+\][\w/-]+ ok$/);
});
