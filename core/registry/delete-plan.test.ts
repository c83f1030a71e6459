import { expect, test } from "bun:test";
import type { KubeObject } from "../api/types.ts";
import { type DeletePlan, deletesDuringUpdate, planDelete } from "./delete-plan.ts";
import { NAMESPACE_HOOKS, podGracePeriod, type Strategy } from "./strategy.ts";
import { CRD_DELETION_HOOKS } from "./apiextensions/mod.ts";

const base: Strategy = {
  tracksGeneration: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  hasStatus: false,
  defaultPropagation: "Background",
  returnsDeletedObject: false,
};
const configMaps = base;
const deployments: Strategy = { ...base, tracksGeneration: true, hasStatus: true };
const pods: Strategy = { ...base, hasStatus: true, returnsDeletedObject: true, checkGracefulDelete: podGracePeriod };
const namespaces: Strategy = { ...base, hasStatus: true, returnsDeletedObject: true, ...NAMESPACE_HOOKS };
const crds: Strategy = { ...base, hasStatus: true, ...CRD_DELETION_HOOKS };

const NOW = Date.parse("2026-01-01T00:00:00Z");
const obj = (metadata: KubeObject["metadata"], rest: Partial<KubeObject> = {}): KubeObject => ({
  metadata: { name: "x", ...metadata },
  ...rest,
});
const scheduledPod = (metadata: KubeObject["metadata"] = {}) =>
  obj(metadata, { spec: { nodeName: "n1", terminationGracePeriodSeconds: 30 }, status: { phase: "Running" } });
const marked = (plan: DeletePlan) => {
  if (plan.action !== "mark") throw new Error(`expected a mark, got ${plan.action}`);
  return plan;
};

test("rest.BeforeDelete: a graceful deletion's deletionTimestamp is when its grace period ends", () => {
  const plan = marked(planDelete(pods, scheduledPod(), {}, NOW));
  expect(plan.next.metadata.deletionTimestamp).toBe("2026-01-01T00:00:30Z");
  expect(plan.next.metadata.deletionGracePeriodSeconds).toBe(30);
  expect(plan.thenRemove).toBe(false);
});

test("rest.BeforeDelete: a shorter grace period moves a pending deletion earlier; an equal or longer one changes nothing", () => {
  const pending = scheduledPod({ deletionTimestamp: "2026-01-01T00:00:30Z", deletionGracePeriodSeconds: 30 });
  const shorter = marked(planDelete(pods, pending, { gracePeriodSeconds: 10 }, NOW + 5000));
  expect(shorter.next.metadata.deletionTimestamp).toBe("2026-01-01T00:00:10Z");
  expect(shorter.next.metadata.deletionGracePeriodSeconds).toBe(10);
  expect(planDelete(pods, pending, { gracePeriodSeconds: 30 }, NOW)).toEqual({ action: "keep" });
  expect(planDelete(pods, pending, {}, NOW)).toEqual({ action: "keep" });
  // A pending graceful deletion keeps its finalizers whatever propagation is asked.
  expect(planDelete(pods, pending, { propagationPolicy: "Orphan" }, NOW)).toEqual({ action: "keep" });
});

test("updateForGracefulDeletionAndFinalizers: a graceful kind deleted with 0 is marked, then removed", () => {
  const unscheduled = obj({}, { spec: {} });
  const plan = marked(planDelete(pods, unscheduled, { gracePeriodSeconds: 30 }, NOW));
  expect(plan.next.metadata).toMatchObject({ deletionTimestamp: "2026-01-01T00:00:00Z", deletionGracePeriodSeconds: 0 });
  expect(plan.thenRemove).toBe(true);
  const pending = scheduledPod({ deletionTimestamp: "2026-01-01T00:00:30Z", deletionGracePeriodSeconds: 30 });
  expect(marked(planDelete(pods, pending, { gracePeriodSeconds: 0 }, NOW)).thenRemove).toBe(true);
  // Finalizers keep it, marked.
  const held = obj({ finalizers: ["example.com/hold"] }, { spec: {} });
  expect(marked(planDelete(pods, held, {}, NOW)).thenRemove).toBe(false);
});

test("Store.Delete: a kind without graceful deletion goes at once unless finalizers hold it (markAsDeleting)", () => {
  expect(planDelete(configMaps, obj({}), { gracePeriodSeconds: 30 }, NOW)).toEqual({ action: "remove" });
  const plan = marked(planDelete(deployments, obj({ generation: 3, finalizers: ["example.com/hold"] }), {}, NOW));
  expect(plan.next.metadata).toMatchObject({ deletionTimestamp: "2026-01-01T00:00:00Z", deletionGracePeriodSeconds: 0, generation: 4 });
  const foreground = marked(planDelete(configMaps, obj({}), { propagationPolicy: "Foreground" }, NOW));
  expect(foreground.next.metadata.finalizers).toEqual(["foregroundDeletion"]);
});

test("markAsDeleting: a repeated DELETE keeps the first deletionTimestamp and generation", () => {
  const terminating = obj({
    generation: 4,
    finalizers: ["example.com/hold"],
    deletionTimestamp: "2025-12-31T00:00:00Z",
    deletionGracePeriodSeconds: 0,
  });
  const plan = marked(planDelete(deployments, terminating, {}, NOW));
  expect(plan.next.metadata).toEqual(terminating.metadata);
});

test("namespace REST Delete: the first DELETE marks it Terminating without a grace period; later ones wait for spec.finalizers", () => {
  const ns = obj({}, { spec: { finalizers: ["kubernetes"] }, status: { phase: "Active" } });
  const first = marked(planDelete(namespaces, ns, { propagationPolicy: "Orphan" }, NOW));
  expect(first.next.metadata).toEqual({ name: "x", deletionTimestamp: "2026-01-01T00:00:00Z", finalizers: ["orphan"] });
  expect(first.next.status).toEqual({ phase: "Terminating" });
  expect(planDelete(namespaces, first.next, { propagationPolicy: "Foreground" }, NOW)).toEqual({ action: "keep" });
  const finalized = { ...first.next, spec: { finalizers: [] } };
  expect(marked(planDelete(namespaces, finalized, {}, NOW)).next.metadata.deletionGracePeriodSeconds).toBe(0);
  expect(planDelete(namespaces, { ...finalized, metadata: { name: "x", deletionTimestamp: "2026-01-01T00:00:00Z" } }, {}, NOW))
    .toEqual({ action: "remove" });
});

test("rest.BeforeDelete: a negative grace period counts as 1 second", () => {
  const plan = marked(planDelete(pods, scheduledPod(), { gracePeriodSeconds: -5 }, NOW));
  expect(plan.next.metadata).toMatchObject({ deletionTimestamp: "2026-01-01T00:00:01Z", deletionGracePeriodSeconds: 1 });
  const pending = scheduledPod({ deletionTimestamp: "2026-01-01T00:00:30Z", deletionGracePeriodSeconds: 30 });
  expect(marked(planDelete(pods, pending, { gracePeriodSeconds: -1 }, NOW)).next.metadata.deletionGracePeriodSeconds).toBe(1);
});

test("CRD REST Delete: the first DELETE adds the cleanup finalizer and leaves propagation finalizers alone; the next marks it deleting", () => {
  const first = marked(planDelete(crds, obj({}, { status: {} }), { propagationPolicy: "Foreground" }, NOW));
  expect(first.next.metadata).toEqual({
    name: "x",
    deletionTimestamp: "2026-01-01T00:00:00Z",
    finalizers: ["customresourcecleanup.apiextensions.k8s.io"],
  });
  const again = marked(planDelete(crds, first.next, {}, NOW));
  expect(again.next.metadata.deletionGracePeriodSeconds).toBe(0);
});

test("orphanDependents=false: no propagation finalizer from the generic store, foregroundDeletion from the namespace REST", () => {
  expect(planDelete(configMaps, obj({ finalizers: ["orphan"] }), { orphanDependents: false }, NOW)).toEqual({ action: "remove" });
  const ns = obj({}, { spec: { finalizers: ["kubernetes"] }, status: { phase: "Active" } });
  expect(marked(planDelete(namespaces, ns, { orphanDependents: false }, NOW)).next.metadata.finalizers).toEqual(["foregroundDeletion"]);
  expect(marked(planDelete(namespaces, ns, { orphanDependents: true }, NOW)).next.metadata.finalizers).toEqual(["orphan"]);
});

test("deletesDuringUpdate (ShouldDeleteDuringUpdate): a terminating object without a grace period goes with its last finalizer", () => {
  const terminating = (grace?: number) =>
    ({
      metadata: { name: "x", deletionTimestamp: "2026-01-01T00:00:00Z", deletionGracePeriodSeconds: grace, finalizers: ["f"] },
    }) as KubeObject;
  const withoutFinalizers = { metadata: { name: "x", finalizers: [] } } as unknown as KubeObject;
  expect(deletesDuringUpdate({} as Strategy, terminating(0), withoutFinalizers)).toBe(true);
  expect(deletesDuringUpdate({} as Strategy, terminating(), withoutFinalizers)).toBe(true);
  expect(deletesDuringUpdate({} as Strategy, terminating(30), withoutFinalizers)).toBe(false);
  expect(deletesDuringUpdate({} as Strategy, terminating(0), terminating(0))).toBe(false);
  expect(deletesDuringUpdate({ holdsDeletion: () => true } as unknown as Strategy, terminating(0), withoutFinalizers)).toBe(false);
  expect(deletesDuringUpdate({} as Strategy, { metadata: { name: "x" } } as KubeObject, withoutFinalizers)).toBe(false);
});
