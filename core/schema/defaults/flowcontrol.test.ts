import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { FLOWCONTROL_DEFAULTERS, FLOWCONTROL_V1BETA3_DEFAULTERS } from "./flowcontrol.ts";

function defaulted(kind: string, spec: Record<string, unknown>): Record<string, unknown> {
  const obj: KubeObject = { apiVersion: "flowcontrol.apiserver.k8s.io/v1beta2", kind, metadata: { name: "x" }, spec };
  FLOWCONTROL_DEFAULTERS.kinds[kind](obj);
  return obj.spec as Record<string, unknown>;
}

test("a FlowSchema with zero or no matchingPrecedence gets 1000", () => {
  expect(defaulted("FlowSchema", {}).matchingPrecedence).toBe(1000);
  expect(defaulted("FlowSchema", { matchingPrecedence: 0 }).matchingPrecedence).toBe(1000);
  expect(defaulted("FlowSchema", { matchingPrecedence: 500 }).matchingPrecedence).toBe(500);
});

test("a limited priority level gets 30 shares, 0% lendable and queuing 8/64/50", () => {
  const spec = defaulted("PriorityLevelConfiguration", {
    type: "Limited",
    limited: { limitResponse: { type: "Queue", queuing: { queues: 16 } } },
  });
  expect(spec.limited).toEqual({
    assuredConcurrencyShares: 30,
    lendablePercent: 0,
    limitResponse: { type: "Queue", queuing: { queues: 16, handSize: 8, queueLengthLimit: 50 } },
  });
  expect(defaulted("PriorityLevelConfiguration", { type: "Exempt" })).toEqual({ type: "Exempt" });
});

test("v1beta3 defaults the renamed nominalConcurrencyShares to 30", () => {
  const obj: KubeObject = {
    apiVersion: "flowcontrol.apiserver.k8s.io/v1beta3",
    kind: "PriorityLevelConfiguration",
    metadata: { name: "x" },
    spec: { type: "Limited", limited: { limitResponse: { type: "Reject" } } },
  };
  FLOWCONTROL_V1BETA3_DEFAULTERS.kinds.PriorityLevelConfiguration(obj);
  expect((obj.spec as { limited: unknown }).limited).toEqual({
    nominalConcurrencyShares: 30,
    lendablePercent: 0,
    limitResponse: { type: "Reject" },
  });
});
