import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlUntil } from "./_workloads.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startServer(["--simulated-nodes=3"]);
});
afterAll(async () => {
  await server?.stop();
});

async function readyDeployment(name: string): Promise<void> {
  expect((await server.kubectl(["create", "deployment", name, "--image=nginx", "--replicas=2"])).code).toBe(0);
  expect((await server.kubectl(["rollout", "status", `deployment/${name}`, "--timeout=30s"])).code).toBe(0);
}

const count = async (args: string[]) => (await server.kubectl([...args, "-o", "name"])).stdout.split("\n").filter(Boolean).length;

test("--cascade=background deletes the Deployment, then its ReplicaSet and pods", async () => {
  await readyDeployment("bg");
  expect((await server.kubectl(["delete", "deployment", "bg", "--cascade=background"])).code).toBe(0);
  await kubectlUntil(server, ["get", "rs,pods", "-l", "app=bg", "-o", "name"], (out) => out.trim() === "");
});

test("--cascade=foreground deletes the dependents before the Deployment goes", async () => {
  await readyDeployment("fg");
  expect((await server.kubectl(["delete", "deployment", "fg", "--cascade=foreground", "--wait=false"])).code).toBe(0);
  const finalizers = await server.kubectl(["get", "deployment", "fg", "-o", "jsonpath={.metadata.finalizers}", "--ignore-not-found"]);
  // Either still held by foregroundDeletion, or already gone with everything it owned.
  if (finalizers.stdout !== "") expect(finalizers.stdout).toContain("foregroundDeletion");
  await kubectlUntil(server, ["get", "deployment,rs,pods", "-l", "app=fg", "-o", "name"], (out) => out.trim() === "");
  expect(await count(["get", "deployment", "fg", "--ignore-not-found"])).toBe(0);
});

test("--cascade=orphan deletes the Deployment and leaves its ReplicaSet and pods without an owner", async () => {
  await readyDeployment("orph");
  expect((await server.kubectl(["delete", "deployment", "orph", "--cascade=orphan"])).code).toBe(0);
  await kubectlUntil(server, ["get", "deployment", "orph", "--ignore-not-found", "-o", "name"], (out) => out.trim() === "");
  const owners = await kubectlUntil(
    server,
    ["get", "rs", "-l", "app=orph", "-o", "jsonpath={.items[*].metadata.ownerReferences}"],
    (out) => out === "",
  );
  expect(owners).toBe("");
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(await count(["get", "pods", "-l", "app=orph"])).toBe(2);
});

test("a ReplicaSet delete with propagationPolicy Orphan via HTTP leaves the orphan finalizer for the collector", async () => {
  const rs = {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: { name: "keep" },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: "keep" } },
      template: { metadata: { labels: { app: "keep" } }, spec: { containers: [{ name: "c", image: "nginx" }] } },
    },
  };
  expect((await server.kubectl(["apply", "-f", "-"], { stdin: JSON.stringify(rs) })).code).toBe(0);
  await kubectlUntil(server, ["get", "pods", "-l", "app=keep", "-o", "jsonpath={.items[*].status.phase}"], (out) => out === "Running");
  const response = await server.request("DELETE", "/apis/apps/v1/namespaces/default/replicasets/keep", {
    body: JSON.stringify({ kind: "DeleteOptions", apiVersion: "v1", propagationPolicy: "Orphan" }),
    headers: { "Content-Type": "application/json" },
  });
  expect(response.status).toBe(200);
  const body = await response.json();
  expect(body.metadata.finalizers).toEqual(["orphan"]);
  await kubectlUntil(server, ["get", "rs", "keep", "--ignore-not-found", "-o", "name"], (out) => out.trim() === "");
  expect(
    await kubectlUntil(
      server,
      ["get", "pods", "-l", "app=keep", "-o", "jsonpath={.items[*].metadata.ownerReferences}"],
      (out) => out === "",
    ),
  ).toBe("");
});
