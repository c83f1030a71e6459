import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { podsByTargetNode } from "./daemonset-plan.ts";
import { daemonSetStatus } from "./daemonset-status.ts";

const ds: KubeObject = {
  metadata: { name: "agent", generation: 2 },
  spec: { template: { spec: { nodeSelector: { os: "linux" } } } },
  status: { collisionCount: 1 },
};
const node = (name: string, os = "linux"): KubeObject => ({ metadata: { name, labels: { os } }, spec: {} });
const pod = (name: string, node: string, hash: string, ready = true): KubeObject => ({
  metadata: { name, labels: { "controller-revision-hash": hash }, creationTimestamp: "2024-01-01T00:00:00Z" },
  spec: { nodeName: node },
  status: { phase: "Running", conditions: [{ type: "Ready", status: ready ? "True" : "False" }] },
});

test("daemonSetStatus() counts desired, scheduled, ready, updated and misscheduled nodes", () => {
  const nodes = [node("a"), node("b"), node("c"), node("w", "windows")];
  const pods = [pod("pa", "a", "new"), pod("pb", "b", "old", false), pod("pw", "w", "new")];
  expect(daemonSetStatus(ds, { nodes, podsByNode: podsByTargetNode(pods), hash: "new", now: Date.now() })).toEqual({
    currentNumberScheduled: 2,
    numberMisscheduled: 1,
    desiredNumberScheduled: 3,
    numberReady: 1,
    observedGeneration: 2,
    updatedNumberScheduled: 1,
    numberAvailable: 1,
    numberUnavailable: 2,
    collisionCount: 1,
  });
});
