import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { planReplicaSet, selectsPod } from "./replicaset.ts";

const rs = (replicas: number): KubeObject => ({
  kind: "ReplicaSet",
  metadata: { name: "web", generation: 2 },
  spec: { replicas, selector: { matchLabels: { app: "web" } }, template: { metadata: { labels: { app: "web" } } } },
});
const pod = (name: string, ready: boolean, created: string): KubeObject => ({
  metadata: { name, labels: { app: "web" }, creationTimestamp: created },
  spec: { nodeName: "sim-0" },
  status: { phase: "Running", conditions: [{ type: "Ready", status: ready ? "True" : "False" }] },
});

test("planReplicaSet() creates the missing pods and reports the counts", () => {
  const plan = planReplicaSet(rs(3), [pod("a", true, "2024-01-01T00:00:00Z")], Date.now());
  expect(plan.create).toBe(2);
  expect(plan.status).toMatchObject({
    replicas: 1,
    fullyLabeledReplicas: 1,
    readyReplicas: 1,
    availableReplicas: 1,
    observedGeneration: 2,
  });
});

test("planReplicaSet() removes not-ready pods before ready ones when scaling down", () => {
  const plan = planReplicaSet(
    rs(1),
    [pod("ready", true, "2024-01-02T00:00:00Z"), pod("unready", false, "2024-01-01T00:00:00Z")],
    Date.now(),
  );
  expect(plan.remove.map((p) => p.metadata.name)).toEqual(["unready"]);
});

test("selectsPod() reads a ReplicationController's selector as a label map", () => {
  const rc: KubeObject = { kind: "ReplicationController", metadata: {}, spec: { selector: { app: "web" } } };
  expect(selectsPod(rc, { app: "web", x: "y" })).toBe(true);
  expect(selectsPod(rc, { app: "db" })).toBe(false);
});
