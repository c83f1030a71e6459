import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";
import { kubectlUntil, lines } from "./_workloads.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startServer(["--simulated-nodes=3"]);
});
afterAll(async () => {
  await server?.stop();
});

const daemonSet = (name: string, nodeSelector = "{}") => `
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: ${name}
spec:
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      nodeSelector: ${nodeSelector}
      containers:
      - name: agent
        image: agent:1
`;

/** "<node> <image>" for each pod of the app, by node. */
const podsByNode = async (app: string) =>
  lines(
    await kubectlOk(server, [
      "get",
      "pods",
      "-l",
      `app=${app}`,
      "-o",
      'jsonpath={range .items[*]}{.spec.nodeName} {.spec.containers[0].image}{"\\n"}{end}',
    ]),
  ).sort();

test("a DaemonSet runs one pod on each node and rollout status returns", async () => {
  await kubectlOk(server, ["apply", "-f", "-"], daemonSet("agent"));
  expect(await kubectlOk(server, ["rollout", "status", "daemonset/agent", "--timeout=30s"])).toContain(
    'daemon set "agent" successfully rolled out',
  );
  expect(await podsByNode("agent")).toEqual(["sim-0 agent:1", "sim-1 agent:1", "sim-2 agent:1"]);
  const status = JSON.parse(await kubectlOk(server, ["get", "daemonset", "agent", "-o", "jsonpath={.status}"]));
  expect(status).toEqual({
    currentNumberScheduled: 3,
    desiredNumberScheduled: 3,
    numberAvailable: 3,
    numberMisscheduled: 0,
    numberReady: 3,
    observedGeneration: 1,
    updatedNumberScheduled: 3,
  });
});

test("daemon pods are pinned by node affinity on metadata.name and carry the daemon tolerations", async () => {
  const pinned = lines(
    await kubectlOk(server, [
      "get",
      "pods",
      "-l",
      "app=agent",
      "-o",
      'jsonpath={range .items[*]}{.spec.nodeName}={.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values[0]}{"\\n"}{end}',
    ]),
  );
  expect(pinned.sort()).toEqual(["sim-0=sim-0", "sim-1=sim-1", "sim-2=sim-2"]);
  const tolerations = await kubectlOk(server, ["get", "pods", "-l", "app=agent", "-o", "jsonpath={.items[0].spec.tolerations[*].key}"]);
  expect(tolerations.split(" ")).toEqual(expect.arrayContaining([
    "node.kubernetes.io/not-ready",
    "node.kubernetes.io/unreachable",
    "node.kubernetes.io/disk-pressure",
    "node.kubernetes.io/memory-pressure",
    "node.kubernetes.io/pid-pressure",
    "node.kubernetes.io/unschedulable",
  ]));
  const hash = await kubectlOk(server, [
    "get",
    "pods",
    "-l",
    "app=agent",
    "-o",
    "jsonpath={.items[0].metadata.labels.controller-revision-hash}",
  ]);
  expect(await kubectlOk(server, ["get", "controllerrevisions", "-l", "app=agent", "-o", "jsonpath={.items[*].metadata.name}"])).toBe(
    `agent-${hash}`,
  );
});

test("an image change rolls every node's pod to the new template and rollout history and undo work", async () => {
  await kubectlOk(server, ["set", "image", "daemonset/agent", "agent=agent:2"]);
  expect(await kubectlOk(server, ["rollout", "status", "daemonset/agent", "--timeout=30s"])).toContain("successfully rolled out");
  expect(await podsByNode("agent")).toEqual(["sim-0 agent:2", "sim-1 agent:2", "sim-2 agent:2"]);
  expect(lines(await kubectlOk(server, ["rollout", "history", "daemonset/agent"]))).toEqual([
    "daemonset.apps/agent",
    "REVISION  CHANGE-CAUSE",
    "1         <none>",
    "2         <none>",
  ]);
  expect(await kubectlOk(server, ["rollout", "undo", "daemonset/agent"])).toContain("rolled back");
  await kubectlUntil(
    server,
    ["get", "pods", "-l", "app=agent", "-o", "jsonpath={.items[*].spec.containers[0].image}"],
    (out) => out === "agent:1 agent:1 agent:1",
  );
  await kubectlOk(server, ["rollout", "status", "daemonset/agent", "--timeout=30s"]);
  expect(lines(await kubectlOk(server, ["rollout", "history", "daemonset/agent"]))).toEqual([
    "daemonset.apps/agent",
    "REVISION  CHANGE-CAUSE",
    "2         <none>",
    "3         <none>",
  ]);
});

test("a nodeSelector limits the nodes and a NoExecute taint removes the node's daemon pod", async () => {
  await kubectlOk(server, ["label", "node", "sim-1", "role=edge"]);
  await kubectlOk(server, ["apply", "-f", "-"], daemonSet("edge", "{role: edge}"));
  await kubectlOk(server, ["rollout", "status", "daemonset/edge", "--timeout=30s"]);
  expect(await podsByNode("edge")).toEqual(["sim-1 agent:1"]);
  await kubectlOk(server, ["taint", "node", "sim-2", "dedicated=db:NoExecute"]);
  await kubectlUntil(server, [
    "get",
    "daemonset",
    "agent",
    "-o",
    "jsonpath={.status.desiredNumberScheduled}/{.status.currentNumberScheduled}",
  ], (out) => out === "2/2");
  expect(await podsByNode("agent")).toEqual(["sim-0 agent:1", "sim-1 agent:1"]);
  await kubectlOk(server, ["taint", "node", "sim-2", "dedicated=db:NoExecute-"]);
  await kubectlUntil(server, ["get", "daemonset", "agent", "-o", "jsonpath={.status.numberReady}"], (out) => out === "3");
});

test("a new Node gets a daemon pod once Ready and rid of the not-ready taint it is registered with", async () => {
  await kubectlOk(
    server,
    ["apply", "-f", "-"],
    "apiVersion: v1\nkind: Node\nmetadata:\n  name: extra\n  labels: {kubernetes.io/hostname: extra}\n",
  );
  const ready = {
    status: {
      conditions: [{ type: "Ready", status: "True", reason: "KubeletReady", message: "kubelet is posting ready status" }],
      allocatable: { cpu: "4", memory: "16Gi", pods: "110" },
    },
  };
  await kubectlOk(server, ["patch", "node", "extra", "--subresource=status", "--type=merge", "-p", JSON.stringify(ready)]);
  // The node lifecycle controller lifts the not-ready taint once the node's conditions no longer call for it (doNoScheduleTaintingPass).
  await kubectlUntil(
    server,
    ["get", "node", "extra", "-o", "jsonpath={.spec.taints}"],
    (out) => !out.includes("node.kubernetes.io/not-ready"),
  );
  await kubectlUntil(
    server,
    ["get", "pods", "-l", "app=agent", "-o", "jsonpath={.items[*].spec.nodeName}"],
    (out) => out.split(" ").includes("extra"),
  );
  expect(
    await kubectlOk(server, [
      "get",
      "daemonset",
      "agent",
      "-o",
      "jsonpath={.status.desiredNumberScheduled}/{.status.currentNumberScheduled}",
    ]),
  ).toBe("4/4");
});
