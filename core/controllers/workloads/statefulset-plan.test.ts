import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { planStatefulSet, type StatefulSetAction } from "./statefulset-plan.ts";

const revisions = {
  current: { name: "db-old", template: { metadata: { labels: { app: "db" } }, spec: { containers: [{ name: "c", image: "v1" }] } } },
  update: { name: "db-new", template: { metadata: { labels: { app: "db" } }, spec: { containers: [{ name: "c", image: "v2" }] } } },
};
const set = (spec: Record<string, unknown> = {}, status: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "StatefulSet",
  metadata: { name: "db", namespace: "default", uid: "u", generation: 3 },
  spec: {
    replicas: 3,
    podManagementPolicy: "OrderedReady",
    updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: 0 } },
    ...spec,
  },
  status,
});
const pod = (ordinal: number, revision: string, state: "ready" | "pending" | "failed" = "ready"): KubeObject => ({
  metadata: { name: `db-${ordinal}`, labels: { "controller-revision-hash": revision } },
  status: state === "ready"
    ? { phase: "Running", conditions: [{ type: "Ready", status: "True" }] }
    : { phase: state === "failed" ? "Failed" : "Pending" },
});
const describe = (actions: StatefulSetAction[]) =>
  actions.map((
    a,
  ) => ("create" in a
    ? `create ${a.create.metadata.name}@${a.create.metadata.labels?.["controller-revision-hash"]}`
    : `delete ${a.remove.metadata.name}`)
  );
const now = Date.now();

test("OrderedReady creates only the lowest missing ordinal, and none while a lower pod is not ready", () => {
  expect(describe(planStatefulSet(set(), [], revisions, now).actions)).toEqual(["create db-0@db-new"]);
  expect(describe(planStatefulSet(set(), [pod(0, "db-new")], revisions, now).actions)).toEqual(["create db-1@db-new"]);
  expect(describe(planStatefulSet(set(), [pod(0, "db-new", "pending")], revisions, now).actions)).toEqual([]);
});

test("Parallel creates every missing ordinal at once and deletes every surplus one", () => {
  const parallel = set({ podManagementPolicy: "Parallel" });
  expect(describe(planStatefulSet(parallel, [pod(1, "db-new", "pending")], revisions, now).actions)).toEqual([
    "create db-0@db-new",
    "create db-2@db-new",
  ]);
  const shrunk = set({ podManagementPolicy: "Parallel", replicas: 1 });
  expect(describe(planStatefulSet(shrunk, [0, 1, 2].map((i) => pod(i, "db-new")), revisions, now).actions)).toEqual([
    "delete db-2",
    "delete db-1",
  ]);
});

test("scaling down under OrderedReady deletes the highest ordinal first, one at a time", () => {
  const plan = planStatefulSet(set({ replicas: 1 }), [0, 1, 2].map((i) => pod(i, "db-new")), revisions, now);
  expect(describe(plan.actions)).toEqual(["delete db-2"]);
});

test("a failed pod is deleted so that it is created again", () => {
  expect(describe(planStatefulSet(set(), [pod(0, "db-new", "failed")], revisions, now).actions)).toEqual(["delete db-0"]);
});

test("RollingUpdate replaces the highest ordinal not at the update revision and waits for it before the next", () => {
  const pods = [pod(0, "db-old"), pod(1, "db-old"), pod(2, "db-old")];
  const plan = planStatefulSet(set(), pods, revisions, now);
  expect(describe(plan.actions)).toEqual(["delete db-2"]);
  expect(plan.status).toMatchObject({ currentReplicas: 2, updatedReplicas: 0, currentRevision: "db-old", updateRevision: "db-new" });
  const recreated = [pod(0, "db-old"), pod(1, "db-old"), pod(2, "db-new", "pending")];
  expect(describe(planStatefulSet(set(), recreated, revisions, now).actions)).toEqual([]);
  const ready = [pod(0, "db-old"), pod(1, "db-old"), pod(2, "db-new")];
  expect(describe(planStatefulSet(set(), ready, revisions, now).actions)).toEqual(["delete db-1"]);
});

test("a partition keeps lower ordinals, and their replacements, at the current revision", () => {
  const partitioned = set({ updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: 2 } } });
  expect(describe(planStatefulSet(partitioned, [pod(0, "db-old"), pod(1, "db-old"), pod(2, "db-new")], revisions, now).actions)).toEqual(
    [],
  );
  expect(describe(planStatefulSet(partitioned, [pod(1, "db-old"), pod(2, "db-new")], revisions, now).actions)).toEqual([
    "create db-0@db-old",
  ]);
});

test("OnDelete leaves old pods alone and recreates deleted ones at the update revision", () => {
  const onDelete = set({ updateStrategy: { type: "OnDelete" } });
  expect(describe(planStatefulSet(onDelete, [pod(0, "db-old"), pod(1, "db-old"), pod(2, "db-old")], revisions, now).actions)).toEqual([]);
  expect(describe(planStatefulSet(onDelete, [pod(0, "db-old"), pod(2, "db-old")], revisions, now).actions)).toEqual(["create db-1@db-new"]);
});

test("the status makes the update revision current once every pod is updated and ready", () => {
  const plan = planStatefulSet(set({}, { collisionCount: 2 }), [0, 1, 2].map((i) => pod(i, "db-new")), revisions, now);
  expect(plan.status).toEqual({
    observedGeneration: 3,
    replicas: 3,
    readyReplicas: 3,
    availableReplicas: 3,
    currentReplicas: 3,
    updatedReplicas: 3,
    currentRevision: "db-new",
    updateRevision: "db-new",
    collisionCount: 2,
  });
});

test("a StatefulSet being deleted gets a status but no pod changes", () => {
  const deleting = { ...set(), metadata: { ...set().metadata, deletionTimestamp: "2024-01-01T00:00:00Z" } };
  const plan = planStatefulSet(deleting, [pod(1, "db-new")], revisions, now);
  expect(plan.actions).toEqual([]);
  expect(plan.status.replicas).toBe(1);
});
