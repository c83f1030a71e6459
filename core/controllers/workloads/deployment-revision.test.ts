import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { replicaSetAnnotations, REVISION_HISTORY_ANNOTATION, revisionHistoryAfter } from "./deployment-revision.ts";

const deployment: KubeObject = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web", annotations: { team: "a" } } };
const bounds = { revision: 3, desired: 2, max: 3 };

test("a reused ReplicaSet records its previous revision in revision-history (kube's SetNewReplicaSetAnnotations)", () => {
  const annotations = replicaSetAnnotations(deployment, { "deployment.kubernetes.io/revision": "1" }, bounds);
  expect(annotations["deployment.kubernetes.io/revision"]).toBe("3");
  expect(annotations[REVISION_HISTORY_ANNOTATION]).toBe("1");
  expect(annotations.team).toBe("a");
});

test("later rollbacks append to revision-history", () => {
  const current = { "deployment.kubernetes.io/revision": "3", [REVISION_HISTORY_ANNOTATION]: "1" };
  expect(replicaSetAnnotations(deployment, current, { ...bounds, revision: 5 })[REVISION_HISTORY_ANNOTATION]).toBe("1,3");
});

test("a new ReplicaSet, or one whose revision does not rise, gets no revision-history", () => {
  expect(replicaSetAnnotations(deployment, undefined, bounds)[REVISION_HISTORY_ANNOTATION]).toBeUndefined();
  expect(replicaSetAnnotations(deployment, { "deployment.kubernetes.io/revision": "3" }, bounds)[REVISION_HISTORY_ANNOTATION])
    .toBeUndefined();
});

test("the Deployment's own revision-history is not copied onto its ReplicaSets", () => {
  const annotated = { ...deployment, metadata: { ...deployment.metadata, annotations: { [REVISION_HISTORY_ANNOTATION]: "9" } } };
  expect(replicaSetAnnotations(annotated, undefined, bounds)[REVISION_HISTORY_ANNOTATION]).toBeUndefined();
});

test("revision-history drops its oldest entries past kube's maxRevHistoryLengthInChars (2000)", () => {
  const history = Array.from({ length: 400 }, (_, i) => String(10000 + i)).join(",");
  const next = revisionHistoryAfter(history, "99999")!;
  expect(next.length).toBeLessThanOrEqual(2000);
  expect(next.endsWith(",10399,99999")).toBe(true);
  expect(next.startsWith("10068,")).toBe(true);
});
