import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { isStatusError, type StatusError } from "../../api/errors.ts";
import { statusErrorOfAsync } from "../../api/testing.ts";
import type { KubeObject } from "../../api/types.ts";
import { builtInCatalog } from "../../registry/catalog.ts";
import { Registry } from "../../registry/registry.ts";
import type { ResourceStore } from "../../registry/store.ts";
import { openSqliteStorage } from "../../storage/sqlite/mod.ts";
import type { Storage } from "../../storage/storage.ts";
import { canIgnorePdb, decremented, planEviction } from "./eviction-budget.ts";

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

describe("planEviction over a registry", () => {
  const catalog = builtInCatalog();
  let storage: Storage;
  let registry: Registry;
  const store = (group: string, resource: string) => registry.store(catalog.byGroupVersionResource(group, "v1", resource)!);
  const pods = () => store("", "pods");
  const pdbs = () => store("policy", "poddisruptionbudgets");

  const budgetStatus = (disruptionsAllowed: number) => ({
    observedGeneration: 1,
    disruptionsAllowed,
    currentHealthy: 3,
    desiredHealthy: 1,
    expectedPods: 3,
  });

  async function setBudget(disruptionsAllowed: number): Promise<void> {
    await pdbs().update("ns", "budget", (live) => ({ ...live!, status: budgetStatus(disruptionsAllowed) }), { subresource: "status" });
  }

  /** The budget store, with the disruption controller's recount landing just before the eviction's first decrement. */
  function racedBudgets(recountTo: number): { budgets: ResourceStore; decrements: () => number } {
    const real = pdbs();
    let decrements = 0;
    const budgets = new Proxy(real, {
      get(target, prop) {
        if (prop === "update") {
          return async (...args: Parameters<ResourceStore["update"]>) => {
            if (++decrements === 1) await setBudget(recountTo);
            return await target.update(...args);
          };
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    return { budgets, decrements: () => decrements };
  }

  beforeEach(async () => {
    storage = openSqliteStorage(":memory:");
    registry = new Registry(storage);
    await store("", "namespaces").create("", { metadata: { name: "ns" } });
    const pod: KubeObject = { metadata: { name: "p", labels: { app: "web" } }, spec: { containers: [{ name: "c", image: "nginx" }] } };
    await pods().create("ns", pod);
    await pods().update("ns", "p", (live) => ({
      ...live!,
      status: { phase: "Running", conditions: [{ type: "Ready", status: "True" }] },
    }), { subresource: "status" });
    await pdbs().create("ns", { metadata: { name: "budget" }, spec: { minAvailable: 1, selector: { matchLabels: { app: "web" } } } });
    await setBudget(2);
  });
  afterEach(async () => {
    await storage.close();
  });

  test("EvictionREST.Create: a budget updated between the check and the decrement is read and decremented again (retry.RetryOnConflict)", async () => {
    const { budgets, decrements } = racedBudgets(1);
    const plan = await planEviction(pods(), budgets, "ns", "p", {});
    expect(plan).toEqual({ deleteOptions: {} });
    expect(decrements()).toBe(2);
    const status = (await pdbs().get("ns", "budget")).status as { disruptionsAllowed: number; disruptedPods: Record<string, string> };
    expect(status.disruptionsAllowed).toBe(0);
    expect(Object.keys(status.disruptedPods)).toEqual(["p"]);
  });

  test("EvictionREST.Create: a retry that finds the budget used up answers checkAndDecrement's 429 and changes nothing", async () => {
    const { budgets, decrements } = racedBudgets(0);
    const refusal = await statusErrorOfAsync(planEviction(pods(), budgets, "ns", "p", {}));
    expect([refusal.code, refusal.message]).toEqual([429, "Cannot evict pod as it would violate the pod's disruption budget."]);
    expect(decrements()).toBe(1);
    expect((await pdbs().get("ns", "budget")).status).toEqual(budgetStatus(0));
  });
});
