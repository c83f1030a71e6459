/** kube's node lifecycle controller (nodelifecycle) and taint-based eviction, with short grace periods via its flags. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";
import { kubectlUntil } from "./_workloads.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startServer([
    "--simulated-nodes=3",
    "--node-monitor-period=500ms",
    "--node-monitor-grace-period=4s",
    "--node-startup-grace-period=3s",
    "--default-unreachable-toleration-seconds=2",
  ]);
});
afterAll(async () => {
  await server?.stop();
});

const conditionsOf = async (node: string) =>
  JSON.parse(await kubectlOk(server, ["get", "node", node, "-o", "jsonpath={.status.conditions}"])) as {
    type: string;
    status: string;
    reason: string;
    message: string;
  }[];
const taintsOf = async (node: string) => {
  const out = await kubectlOk(server, ["get", "node", node, "-o", "jsonpath={range .spec.taints[*]}{.key}:{.effect} {end}"]);
  return out.trim().split(" ").filter(Boolean).sort();
};
const readyOf = (node: string) => ["get", "node", node, "-o", 'jsonpath={.status.conditions[?(@.type=="Ready")].reason}'];
const UNREACHABLE = ["node.kubernetes.io/unreachable:NoExecute", "node.kubernetes.io/unreachable:NoSchedule"];

test("a Node no kubelet reports for gets Unknown conditions with NodeStatusNeverUpdated after --node-startup-grace-period (tryUpdateNodeHealth)", async () => {
  await kubectlOk(server, ["apply", "-f", "-"], "apiVersion: v1\nkind: Node\nmetadata:\n  name: manual\n");
  await kubectlUntil(server, readyOf("manual"), (out) => out === "NodeStatusNeverUpdated");
  const conditions = await conditionsOf("manual");
  expect(conditions.map((c) => `${c.type}=${c.status} ${c.reason}: ${c.message}`)).toEqual(
    ["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"]
      .map((type) => `${type}=Unknown NodeStatusNeverUpdated: Kubelet never posted node status.`),
  );
  await kubectlUntil(server, ["get", "node", "manual", "-o", "jsonpath={.spec.taints[*].effect}"], (out) => out.split(" ").length === 2);
  expect(await taintsOf("manual")).toEqual(UNREACHABLE);
  const described = await kubectlOk(server, ["describe", "node", "manual"]);
  expect(described).toContain("Conditions:");
  expect(described).toMatch(/Ready\s+Unknown\s+.*NodeStatusNeverUpdated\s+Kubelet never posted node status\./);
});

test("a node whose kubelet stops is NodeStatusUnknown, tainted unreachable, its pods not ready and evicted after their tolerationSeconds (NoExecuteTaintManager)", async () => {
  const pod = (name: string, tolerations: string) =>
    `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n  nodeName: sim-0\n  containers: [{name: c, image: nginx}]\n  tolerations: ${tolerations}\n`;
  await kubectlOk(server, ["apply", "-f", "-"], pod("evicted", "[]"));
  await kubectlOk(
    server,
    ["apply", "-f", "-"],
    pod("stays", "[{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute}]"),
  );
  expect(
    await kubectlOk(server, [
      "get",
      "pod",
      "evicted",
      "-o",
      'jsonpath={.spec.tolerations[?(@.key=="node.kubernetes.io/unreachable")].tolerationSeconds}',
    ]),
  ).toBe("2");
  for (const name of ["evicted", "stays"]) {
    await kubectlUntil(
      server,
      ["get", "pod", name, "-o", 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'],
      (out) => out === "True",
    );
  }
  await kubectlOk(server, ["annotate", "node", "sim-0", "kubun.io/simulated-kubelet=stopped"]);
  await kubectlUntil(server, readyOf("sim-0"), (out) => out === "NodeStatusUnknown");
  const ready = (await conditionsOf("sim-0")).find((c) => c.type === "Ready")!;
  expect([ready.status, ready.message]).toEqual(["Unknown", "Kubelet stopped posting node status."]);
  expect(
    await kubectlOk(server, ["get", "nodes", "sim-1", "sim-2", "-o", 'jsonpath={.items[*].status.conditions[?(@.type=="Ready")].status}']),
  ).toBe("True True");
  await kubectlUntil(server, ["get", "node", "sim-0", "-o", "jsonpath={.spec.taints[*].effect}"], (out) => out.split(" ").length === 2);
  expect(await taintsOf("sim-0")).toEqual(UNREACHABLE);
  await kubectlUntil(server, ["get", "pod", "evicted", "-o", "jsonpath={.metadata.deletionTimestamp}"], (out) => out !== "");
  const disruption = JSON.parse(
    await kubectlOk(server, ["get", "pod", "evicted", "-o", 'jsonpath={.status.conditions[?(@.type=="DisruptionTarget")]}']),
  );
  expect([disruption.status, disruption.reason, disruption.message]).toEqual([
    "True",
    "DeletionByTaintManager",
    "Taint manager: deleting due to NoExecute taint",
  ]);
  expect(
    await kubectlOk(server, [
      "get",
      "pod",
      "stays",
      "-o",
      'jsonpath={.status.conditions[?(@.type=="Ready")].status} {.metadata.deletionTimestamp}',
    ]),
  ).toBe("False ");
});

test("the stopped node's Events: RegisteredNode, NodeNotReady (RecordNodeStatusChange), the pod's 'Node is not ready' (MarkPodsNotReady), TaintManagerEviction", async () => {
  const about = async (kind: string, name: string) => {
    const list = JSON.parse(await kubectlOk(server, ["get", "events", "-n", "default", "-o", "json"])).items as {
      type: string;
      reason: string;
      message: string;
      source: { component?: string };
      involvedObject: { kind: string; name: string; uid?: string };
    }[];
    return list.filter((e) => e.involvedObject.kind === kind && e.involvedObject.name === name)
      .map((e) => `${e.type} ${e.reason} ${e.source.component}: ${e.message}`);
  };
  const node = await about("Node", "sim-0");
  expect(node).toContain("Normal RegisteredNode node-controller: Node sim-0 event: Registered Node sim-0 in Controller");
  expect(node).toContain("Normal NodeNotReady node-controller: Node sim-0 status is now: NodeNotReady");
  expect(await about("Pod", "stays")).toContain("Warning NodeNotReady node-controller: Node is not ready");
  expect(await about("Pod", "evicted")).toContain("Normal TaintManagerEviction taint-controller: Marking for deletion Pod default/evicted");
  // kubectl describe node looks for Events whose involvedObject.uid is the node's name, as RecordNodeStatusChange's are.
  expect(await kubectlOk(server, ["describe", "node", "sim-0"])).toMatch(
    /Normal\s+NodeNotReady\s+\S+\s+node-controller\s+Node sim-0 status is now: NodeNotReady/,
  );
});

test("when the kubelet reports again the node is Ready, loses the taints, and its pods are ready again", async () => {
  await kubectlOk(server, ["annotate", "node", "sim-0", "kubun.io/simulated-kubelet-"]);
  await kubectlUntil(server, readyOf("sim-0"), (out) => out === "KubeletReady");
  await kubectlUntil(server, ["get", "node", "sim-0", "-o", "jsonpath={.spec.taints}"], (out) => out === "");
  await kubectlUntil(
    server,
    ["get", "pod", "stays", "-o", 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'],
    (out) => out === "True",
  );
  await kubectlUntil(server, ["get", "pods", "-o", "jsonpath={.items[*].metadata.name}"], (out) => !out.split(" ").includes("evicted"));
});
