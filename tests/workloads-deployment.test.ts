import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";
import { getJson, sendJson } from "./_api.ts";
import { kubectlUntil, lines } from "./_workloads.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startServer(["--simulated-nodes=3"]);
});
afterAll(async () => {
  await server?.stop();
});

test("--simulated-nodes=3 registers three Ready nodes with node leases", async () => {
  // The simulated kubelets register after the server is ready, as real kubelets do, so the test waits for them.
  const nodes = await kubectlUntil(server, [
    "get",
    "nodes",
    "-o",
    'jsonpath={range .items[*]}{.metadata.name}={.status.conditions[?(@.type=="Ready")].status} {end}',
  ], (out) => out.trim() === "sim-0=True sim-1=True sim-2=True");
  expect(nodes.trim()).toBe("sim-0=True sim-1=True sim-2=True");
  const leases = await kubectlUntil(
    server,
    ["get", "leases", "-n", "kube-node-lease", "-o", "jsonpath={.items[*].spec.holderIdentity}"],
    (out) => out.trim() === "sim-0 sim-1 sim-2",
  );
  expect(leases.trim()).toBe("sim-0 sim-1 sim-2");
});

test("a Deployment of 3 replicas reaches 3/3 ready with pods Running on the simulated nodes", async () => {
  await kubectlOk(server, ["create", "deployment", "web", "--image=nginx", "--replicas=3"]);
  expect(await kubectlOk(server, ["rollout", "status", "deployment/web", "--timeout=30s"])).toContain(
    'deployment "web" successfully rolled out',
  );
  expect(await kubectlOk(server, ["get", "deployment", "web", "-o", "jsonpath={.status.readyReplicas}/{.status.replicas}"])).toBe("3/3");
  const pods = lines(
    await kubectlOk(server, [
      "get",
      "pods",
      "-l",
      "app=web",
      "-o",
      'jsonpath={range .items[*]}{.status.phase} {.spec.nodeName} {.status.podIP}{"\\n"}{end}',
    ]),
  );
  expect(pods).toHaveLength(3);
  for (const pod of pods) expect(pod).toMatch(/^Running sim-\d 10\.244\.\d\.\d+$/);
  const condition = await kubectlOk(server, [
    "get",
    "deployment",
    "web",
    "-o",
    'jsonpath={.status.conditions[?(@.type=="Available")].reason}',
  ]);
  expect(condition).toBe("MinimumReplicasAvailable");
});

test("a rollout to a new image and rollout undo move the pods between revisions", async () => {
  await kubectlOk(server, ["set", "image", "deployment/web", "nginx=nginx:1.25"]);
  await kubectlOk(server, ["rollout", "status", "deployment/web", "--timeout=30s"]);
  const images = () =>
    kubectlOk(server, [
      "get",
      "pods",
      "-l",
      "app=web",
      "--field-selector=status.phase=Running",
      "-o",
      "jsonpath={.items[*].spec.containers[0].image}",
    ]);
  await kubectlUntil(
    server,
    ["get", "pods", "-l", "app=web", "-o", "jsonpath={.items[*].spec.containers[0].image}"],
    (out) => out.split(" ").every((i) => i === "nginx:1.25"),
  );
  expect(lines(await kubectlOk(server, ["rollout", "history", "deployment/web"]))).toEqual([
    "deployment.apps/web",
    "REVISION  CHANGE-CAUSE",
    "1         <none>",
    "2         <none>",
  ]);
  expect(await kubectlOk(server, ["rollout", "undo", "deployment/web"])).toContain("rolled back");
  await kubectlOk(server, ["rollout", "status", "deployment/web", "--timeout=30s"]);
  await kubectlUntil(
    server,
    ["get", "pods", "-l", "app=web", "-o", "jsonpath={.items[*].spec.containers[0].image}"],
    (out) => out.trim().split(" ").length === 3 && out.split(" ").every((i) => i.trim() === "nginx"),
  );
  expect((await images()).trim().split(" ")).toEqual(["nginx", "nginx", "nginx"]);
  expect(
    await kubectlOk(server, ["get", "deployment", "web", "-o", "jsonpath={.metadata.annotations.deployment\\.kubernetes\\.io/revision}"]),
  ).toBe("3");
});

test("rollout undo keeps the reused ReplicaSet's old revisions in revision-history (kube's SetNewReplicaSetAnnotations)", async () => {
  expect(lines(await kubectlOk(server, ["rollout", "history", "deployment/web"]))).toEqual([
    "deployment.apps/web",
    "REVISION  CHANGE-CAUSE",
    "2         <none>",
    "3         <none>",
  ]);
  const sets = lines(
    await kubectlOk(server, [
      "get",
      "replicasets",
      "-l",
      "app=web",
      "-o",
      'jsonpath={range .items[*]}{.spec.template.spec.containers[0].image} {.metadata.annotations.deployment\\.kubernetes\\.io/revision} {.metadata.annotations.deployment\\.kubernetes\\.io/revision-history}{"\\n"}{end}',
    ]),
  );
  expect(sets.sort()).toEqual(["nginx 3 1", "nginx:1.25 2"]);
  await kubectlOk(server, ["rollout", "undo", "deployment/web"]);
  await kubectlOk(server, ["rollout", "status", "deployment/web", "--timeout=30s"]);
  await kubectlUntil(server, [
    "get",
    "replicasets",
    "-l",
    "app=web",
    "-o",
    "jsonpath={.items[*].metadata.annotations.deployment\\.kubernetes\\.io/revision-history}",
  ], (out) => out.trim().split(" ").sort().join(" ") === "1 2");
  expect(lines(await kubectlOk(server, ["rollout", "history", "deployment/web"]))).toEqual([
    "deployment.apps/web",
    "REVISION  CHANGE-CAUSE",
    "3         <none>",
    "4         <none>",
  ]);
});

test("a pod asking for more cpu than any node has is Unschedulable with kube's message", async () => {
  const pod = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "huge" },
    spec: { containers: [{ name: "c", image: "nginx", resources: { requests: { cpu: "64" } } }] },
  };
  expect((await sendJson(server, "POST", "/api/v1/namespaces/default/pods", pod)).status).toBe(201);
  const message = await kubectlUntil(server, [
    "get",
    "pod",
    "huge",
    "-o",
    'jsonpath={.status.conditions[?(@.type=="PodScheduled")].message}',
  ], (out) => out !== "");
  expect(message).toBe(
    "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..",
  );
});

test("pods/binding binds a pod once and answers 409 when it is already bound", async () => {
  const pod = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "manual" },
    spec: { schedulerName: "none", containers: [{ name: "c", image: "nginx" }] },
  };
  expect((await sendJson(server, "POST", "/api/v1/namespaces/default/pods", pod)).status).toBe(201);
  const binding = { apiVersion: "v1", kind: "Binding", metadata: { name: "manual" }, target: { kind: "Node", name: "sim-1" } };
  const first = await sendJson(server, "POST", "/api/v1/namespaces/default/pods/manual/binding", binding);
  expect(first.status).toBe(201);
  expect(first.body).toMatchObject({ kind: "Status", status: "Success" });
  const again = await sendJson(server, "POST", "/api/v1/namespaces/default/pods/manual/binding", binding);
  expect(again.status).toBe(409);
  expect(again.body.message).toBe('Operation cannot be fulfilled on pods/binding "manual": pod manual is already assigned to node "sim-1"');
  await kubectlUntil(server, ["get", "pod", "manual", "-o", "jsonpath={.status.phase}"], (out) => out === "Running");
});

test("POST to the bindings collection binds the pod its Binding names, once (kube's LegacyBindingREST.Create)", async () => {
  const pod = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "legacy" },
    spec: { schedulerName: "none", containers: [{ name: "c", image: "nginx" }] },
  };
  expect((await sendJson(server, "POST", "/api/v1/namespaces/default/pods", pod)).status).toBe(201);
  const binding = { apiVersion: "v1", kind: "Binding", metadata: { name: "legacy" }, target: { kind: "Node", name: "sim-2" } };
  const first = await sendJson(server, "POST", "/api/v1/namespaces/default/bindings", binding);
  expect({ status: first.status, body: first.body }).toMatchObject({ status: 201, body: { kind: "Status", status: "Success" } });
  expect((await getJson(server, "/api/v1/namespaces/default/pods/legacy")).spec.nodeName).toBe("sim-2");
  const again = await sendJson(server, "POST", "/api/v1/namespaces/default/bindings", binding);
  expect(again.status).toBe(409);
  expect(again.body.message).toBe('Operation cannot be fulfilled on pods/binding "legacy": pod legacy is already assigned to node "sim-2"');
  // The pod's key comes from the Binding's name: NamespaceKeyFunc's 400s.
  const unnamed = await sendJson(server, "POST", "/api/v1/namespaces/default/bindings", { ...binding, metadata: {} });
  expect({ status: unnamed.status, message: unnamed.body.message }).toEqual({ status: 400, message: "Name parameter required." });
  const dotted = await sendJson(server, "POST", "/api/v1/namespaces/default/bindings", { ...binding, metadata: { name: ".." } });
  expect({ status: dotted.status, message: dotted.body.message }).toEqual({
    status: 400,
    message: "Name parameter invalid: \"..\": may not be '..'",
  });
});

test("an annotation change bumps a Deployment's generation (deploymentStrategy.PrepareForUpdate), the controller's revision annotation does not (written through UpdateStatus)", async () => {
  await kubectlOk(server, ["create", "deployment", "annotated", "--image=nginx", "--replicas=0"]);
  const path = "/apis/apps/v1/namespaces/default/deployments/annotated";
  const generations = async () => {
    const d = await getJson(server, path);
    return [d.metadata.generation, d.metadata.annotations?.["deployment.kubernetes.io/revision"], d.status?.observedGeneration];
  };
  await kubectlUntil(server, ["get", "deployment", "annotated", "-o", "jsonpath={.status.observedGeneration}"], (out) => out === "1");
  expect(await generations()).toEqual([1, "1", 1]);
  const patched = await sendJson(server, "PATCH", path, { metadata: { annotations: { note: "x" } } }, "application/merge-patch+json");
  expect(patched.body.metadata.generation).toBe(2);
  const relabelled = await sendJson(server, "PATCH", path, { metadata: { labels: { note: "x" } } }, "application/merge-patch+json");
  expect(relabelled.body.metadata.generation).toBe(2);
});
