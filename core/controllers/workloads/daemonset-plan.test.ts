import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { type DaemonView, planDaemonPods, planRollingUpdate, podsByTargetNode } from "./daemonset-plan.ts";

const ds = (rollingUpdate: Record<string, unknown> = { maxUnavailable: 1, maxSurge: 0 }): KubeObject => ({
  metadata: { name: "agent", generation: 2 },
  spec: { updateStrategy: { type: "RollingUpdate", rollingUpdate }, template: { spec: { nodeSelector: { os: "linux" } } } },
});
const node = (name: string, os = "linux"): KubeObject => ({ metadata: { name, labels: { os } }, spec: {} });
const pod = (name: string, node: string, hash: string, options: { ready?: boolean; created?: string } = {}): KubeObject => ({
  metadata: { name, labels: { "controller-revision-hash": hash }, creationTimestamp: options.created ?? "2024-01-01T00:00:00Z" },
  spec: { nodeName: node },
  status: { phase: "Running", conditions: [{ type: "Ready", status: options.ready === false ? "False" : "True" }] },
});
const view = (nodes: KubeObject[], pods: KubeObject[]): DaemonView => ({
  nodes,
  podsByNode: podsByTargetNode(pods),
  hash: "new",
  now: Date.now(),
});
const names = (pods: KubeObject[]) => pods.map((p) => p.metadata.name);

test("planDaemonPods() creates a pod on each eligible node without one and removes pods where none may run", () => {
  const plan = planDaemonPods(ds(), view([node("a"), node("b"), node("w", "windows")], [pod("on-b", "b", "new"), pod("on-w", "w", "new")]));
  expect(plan.createOn).toEqual(["a"]);
  expect(names(plan.remove)).toEqual(["on-w"]);
});

test("planDaemonPods() keeps the oldest of two pods on a node and replaces a failed one", () => {
  const failed = { ...pod("failed", "b", "new"), status: { phase: "Failed" } };
  const plan = planDaemonPods(
    ds(),
    view([node("a"), node("b")], [pod("young", "a", "new", { created: "2024-02-01T00:00:00Z" }), pod("old", "a", "new"), failed]),
  );
  expect(plan.createOn).toEqual([]);
  expect(names(plan.remove)).toEqual(["young", "failed"]);
});

test("planRollingUpdate() deletes old pods only within maxUnavailable", () => {
  const nodes = [node("a"), node("b"), node("c")];
  expect(names(planRollingUpdate(ds(), view(nodes, [pod("pa", "a", "old"), pod("pb", "b", "old"), pod("pc", "c", "old")])).remove)).toEqual(
    ["pa"],
  );
  const oneUnready = [pod("pa", "a", "new", { ready: false }), pod("pb", "b", "old"), pod("pc", "c", "old")];
  expect(planRollingUpdate(ds(), view(nodes, oneUnready)).remove).toEqual([]);
  const two = ds({ maxUnavailable: "50%", maxSurge: 0 }); // 1.5 of 3 nodes, rounded up
  expect(names(planRollingUpdate(two, view(nodes, [pod("pa", "a", "old"), pod("pb", "b", "old"), pod("pc", "c", "old")])).remove)).toEqual([
    "pa",
    "pb",
  ]);
});

test("planRollingUpdate() replaces an unavailable old pod even beyond maxUnavailable", () => {
  const nodes = [node("a"), node("b")];
  const plan = planRollingUpdate(ds(), view(nodes, [pod("pa", "a", "new", { ready: false }), pod("pb", "b", "old", { ready: false })]));
  expect(names(plan.remove)).toEqual(["pb"]);
});

test("with maxSurge a new pod starts beside the old one, which goes once the new one is available", () => {
  const surge = ds({ maxUnavailable: 0, maxSurge: 1 });
  const nodes = [node("a"), node("b")];
  expect(planRollingUpdate(surge, view(nodes, [pod("pa", "a", "old"), pod("pb", "b", "old")]))).toEqual({ createOn: ["a"], remove: [] });
  const surging = [pod("pa", "a", "old"), pod("na", "a", "new", { ready: false }), pod("pb", "b", "old")];
  expect(planRollingUpdate(surge, view(nodes, surging))).toEqual({ createOn: [], remove: [] });
  expect(planDaemonPods(surge, view(nodes, surging)).remove).toEqual([]);
  const surged = [pod("pa", "a", "old"), pod("na", "a", "new", { created: "2024-02-01T00:00:00Z" }), pod("pb", "b", "old")];
  expect(names(planDaemonPods(surge, view(nodes, surged)).remove)).toEqual(["pa"]);
});
