import { expect, test } from "bun:test";
import { isStatusError, type StatusError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { canIgnorePdb, decremented } from "./eviction-budget.ts";

function pdb(status: Record<string, unknown>, generation = 1): KubeObject {
  return {
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: { name: "budget", namespace: "default", generation },
    spec: {},
    status,
  };
}

const settled = { observedGeneration: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 };

function refusal(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (e) {
    if (isStatusError(e)) return e;
    throw e;
  }
  throw new Error("no refusal");
}

test("checkAndDecrement: a budget the controller has not observed yet is a 429 with Retry-After 10", () => {
  const error = refusal(() => decremented(pdb({ ...settled, disruptionsAllowed: 1 }, 2), "p", false));
  expect(error.code).toBe(429);
  expect(error.headers).toEqual({ "Retry-After": "10" });
  expect(error.details?.causes).toEqual([{
    reason: "DisruptionBudget",
    message: "The disruption budget budget is still being processed by the server.",
  }]);
});

test("checkAndDecrement: no disruptions left is a 429 naming needed and current healthy pods, without Retry-After", () => {
  const error = refusal(() => decremented(pdb({ ...settled, disruptionsAllowed: 0 }), "p", false));
  expect(error.message).toBe("Cannot evict pod as it would violate the pod's disruption budget.");
  expect(error.headers).toEqual({});
  expect(error.details?.causes?.[0]?.message).toBe("The disruption budget budget needs 2 healthy pods and has 3 currently");
});

test("checkAndDecrement: a negative allowance is 403 Forbidden", () => {
  const error = refusal(() => decremented(pdb({ ...settled, disruptionsAllowed: -1 }), "p", false));
  expect(error.code).toBe(403);
  expect(error.message).toBe('poddisruptionbudget.policy "budget" is forbidden: pdb disruptions allowed is negative');
});

test("checkAndDecrement uses one disruption, records the pod unless dry run, and turns the condition False at zero", () => {
  const next = decremented(pdb({ ...settled, disruptionsAllowed: 1 }), "p", false);
  expect(next.disruptionsAllowed).toBe(0);
  expect(Object.keys(next.disruptedPods ?? {})).toEqual(["p"]);
  expect(next.conditions?.[0]).toMatchObject({ type: "DisruptionAllowed", status: "False", reason: "InsufficientPods" });
  expect(decremented(pdb({ ...settled, disruptionsAllowed: 2 }), "p", true).disruptedPods).toBeUndefined();
});

test("canIgnorePDB: terminal, pending and deleting pods need no budget", () => {
  const pod = (phase: string, deleting = false): KubeObject => ({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p", ...(deleting ? { deletionTimestamp: "2026-01-01T00:00:00Z" } : {}) },
    status: { phase },
  });
  expect(["Succeeded", "Failed", "Pending"].map((phase) => canIgnorePdb(pod(phase)))).toEqual([true, true, true]);
  expect(canIgnorePdb(pod("Running"))).toBe(false);
  expect(canIgnorePdb(pod("Running", true))).toBe(true);
});
