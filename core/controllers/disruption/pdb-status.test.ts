import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { DELETION_TIMEOUT_MS, desiredPdbStatus } from "./pdb-status.ts";
import { podsForPdb } from "./disruption-controller.ts";

const NOW = Date.parse("2026-01-01T00:00:00Z");

function pdb(spec: Record<string, unknown>, status: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: { name: "budget", namespace: "default", generation: 2 },
    spec: { selector: { matchLabels: { app: "web" } }, ...spec },
    status,
  };
}

function pod(name: string, ready: boolean, extra: Partial<KubeObject["metadata"]> = {}): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: "default", labels: { app: "web" }, ...extra },
    status: { phase: "Running", conditions: [{ type: "Ready", status: ready ? "True" : "False" }] },
  };
}

const three = [pod("a", true), pod("b", true), pod("c", false)];
const noScale = () => ({ error: "unused" });

test("trySync: minAvailable as a number counts the selected pods and allows healthy minus desired", () => {
  const status = desiredPdbStatus(pdb({ minAvailable: 1 }), three, noScale, NOW);
  expect(status).toMatchObject({ observedGeneration: 2, expectedPods: 3, desiredHealthy: 1, currentHealthy: 2, disruptionsAllowed: 1 });
  expect(status.conditions).toEqual([{
    type: "DisruptionAllowed",
    status: "True",
    observedGeneration: 2,
    lastTransitionTime: "2026-01-01T00:00:00Z",
    reason: "SufficientPods",
    message: "",
  }]);
});

test("trySync: maxUnavailable and percentages scale the controllers' replicas, rounding up", () => {
  expect(desiredPdbStatus(pdb({ maxUnavailable: "50%" }), three, () => ({ count: 3 }), NOW)).toMatchObject({
    expectedPods: 3,
    desiredHealthy: 1,
    disruptionsAllowed: 1,
  });
  expect(desiredPdbStatus(pdb({ minAvailable: "50%" }), three, () => ({ count: 3 }), NOW)).toMatchObject({
    expectedPods: 3,
    desiredHealthy: 2,
    disruptionsAllowed: 0,
  });
});

test("no disruption allowed is the InsufficientPods condition", () => {
  const status = desiredPdbStatus(pdb({ minAvailable: 2 }), three, noScale, NOW);
  expect(status.disruptionsAllowed).toBe(0);
  expect(status.conditions?.[0]).toMatchObject({ status: "False", reason: "InsufficientPods" });
});

test("buildDisruptedPodMap: a recently evicted pod does not count as healthy until the deletion timeout passes", () => {
  const recent = pdb({ minAvailable: 1 }, { disruptedPods: { a: new Date(NOW - 1000).toISOString() } });
  expect(desiredPdbStatus(recent, three, noScale, NOW)).toMatchObject({
    currentHealthy: 1,
    disruptionsAllowed: 0,
    disruptedPods: { a: new Date(NOW - 1000).toISOString() },
  });
  const expired = pdb({ minAvailable: 1 }, { disruptedPods: { a: new Date(NOW - DELETION_TIMEOUT_MS - 1000).toISOString() } });
  const status = desiredPdbStatus(expired, three, noScale, NOW);
  expect(status.currentHealthy).toBe(2);
  expect(status.disruptedPods).toBeUndefined();
});

test("failSafe: an unknown controller scale is SyncFailed with no disruptions and observedGeneration kept", () => {
  const status = desiredPdbStatus(
    pdb({ maxUnavailable: 1 }, { observedGeneration: 1 }),
    three,
    () => ({ error: 'found no controllers for pod "a"' }),
    NOW,
  );
  expect(status).toMatchObject({ observedGeneration: 1, disruptionsAllowed: 0 });
  expect(status.conditions?.[0]).toMatchObject({ status: "False", reason: "SyncFailed", message: 'found no controllers for pod "a"' });
});

test("getPodsForPdb: an empty selector picks no pods; other namespaces are never picked", () => {
  expect(podsForPdb(pdb({ selector: {} }), three)).toEqual([]);
  expect(podsForPdb(pdb({}), [...three, pod("elsewhere", true, { namespace: "other" })]).map((p) => p.metadata.name)).toEqual([
    "a",
    "b",
    "c",
  ]);
});
