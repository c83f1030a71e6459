import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";

const NS = "tables";
let server: TestServer;

function header(output: string): string[] {
  return output.split("\n")[0].trim().split(/\s{2,}/);
}

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
  await kubectlOk(server, ["-n", NS, "create", "deployment", "web", "--image=nginx:1.25", "--replicas=2"]);
  await kubectlOk(server, ["-n", NS, "create", "service", "clusterip", "web", "--tcp=80:8080"]);
  await kubectlOk(server, ["-n", NS, "create", "job", "once", "--image=busybox"]);
  await kubectlOk(server, ["-n", NS, "run", "solo", "--image=busybox"]);
  const node = { apiVersion: "v1", kind: "Node", metadata: { name: "n1", labels: { "node-role.kubernetes.io/control-plane": "" } } };
  expect((await sendJson(server, "POST", "/api/v1/nodes", node)).status).toBe(201);
});
afterAll(() => server.stop());

test.each([
  ["pods", ["NAME", "READY", "STATUS", "RESTARTS", "AGE"], [
    "NAME",
    "READY",
    "STATUS",
    "RESTARTS",
    "AGE",
    "IP",
    "NODE",
    "NOMINATED NODE",
    "READINESS GATES",
  ]],
  ["deployments", ["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"], [
    "NAME",
    "READY",
    "UP-TO-DATE",
    "AVAILABLE",
    "AGE",
    "CONTAINERS",
    "IMAGES",
    "SELECTOR",
  ]],
  ["services", ["NAME", "TYPE", "CLUSTER-IP", "EXTERNAL-IP", "PORT(S)", "AGE"], [
    "NAME",
    "TYPE",
    "CLUSTER-IP",
    "EXTERNAL-IP",
    "PORT(S)",
    "AGE",
    "SELECTOR",
  ]],
  ["jobs", ["NAME", "COMPLETIONS", "DURATION", "AGE"], ["NAME", "COMPLETIONS", "DURATION", "AGE", "CONTAINERS", "IMAGES", "SELECTOR"]],
])("kubectl get %s prints kube's columns, and -o wide adds the wide ones", async (resource, columns, wide) => {
  expect(header(await kubectlOk(server, ["-n", NS, "get", resource]))).toEqual(columns);
  expect(header(await kubectlOk(server, ["-n", NS, "get", resource, "-o", "wide"]))).toEqual(wide);
});

test("kubectl get shows kind-specific cells: pod status, deployment readiness, service ports, node roles", async () => {
  expect(await kubectlOk(server, ["-n", NS, "get", "pod", "solo", "--no-headers"])).toMatch(/^solo\s+0\/1\s+Pending\s+0\s+\d+s/);
  expect(await kubectlOk(server, ["-n", NS, "get", "deployment", "web", "--no-headers", "-o", "wide"])).toMatch(
    /^web\s+0\/2\s+\d+\s+0\s+\S+\s+nginx\s+nginx:1\.25\s+app=web/,
  );
  expect(await kubectlOk(server, ["-n", NS, "get", "service", "web", "--no-headers"])).toMatch(/^web\s+ClusterIP\s+\S+\s+<none>\s+80\/TCP/);
  expect(await kubectlOk(server, ["get", "nodes", "--no-headers"])).toMatch(/^n1\s+\S+\s+control-plane\s+/);
  expect(header(await kubectlOk(server, ["get", "namespaces"]))).toEqual(["NAME", "STATUS", "AGE"]);
});

test("kubectl explain reads the served OpenAPI: fields of pod.spec.containers and their types", async () => {
  const explained = await kubectlOk(server, ["explain", "pod.spec.containers"]);
  expect(explained).toContain("KIND:       Pod");
  expect(explained).toMatch(/FIELD: containers <\[\]Container>/);
  for (const field of ["image\t<string>", "ports\t<[]ContainerPort>", "resources\t<ResourceRequirements>"]) {
    expect(explained).toContain(field);
  }
  expect(await kubectlOk(server, ["explain", "deployment.spec.replicas"])).toMatch(/FIELD: replicas <integer>/);
});
