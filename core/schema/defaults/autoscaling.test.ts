import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { AUTOSCALING_DEFAULTERS } from "./autoscaling.ts";

function defaulted(spec: Record<string, unknown>): Record<string, unknown> {
  const hpa: KubeObject = {
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: { name: "h" },
    spec: { maxReplicas: 5, ...spec },
  };
  AUTOSCALING_DEFAULTERS.kinds.HorizontalPodAutoscaler(hpa);
  return hpa.spec as Record<string, unknown>;
}

test("an autoscaler gets minReplicas 1 and an 80% CPU utilization target, and no behavior unless given", () => {
  const spec = defaulted({});
  expect(spec).toEqual({
    maxReplicas: 5,
    minReplicas: 1,
    metrics: [{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 80 } } }],
  });
});

test("a given behavior is completed with kube's scale-up and scale-down rules, keeping what was set", () => {
  const spec = defaulted({ minReplicas: 2, behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } });
  expect(spec.minReplicas).toBe(2);
  expect(spec.behavior).toEqual({
    scaleUp: {
      stabilizationWindowSeconds: 0,
      selectPolicy: "Max",
      policies: [{ type: "Pods", value: 4, periodSeconds: 15 }, { type: "Percent", value: 100, periodSeconds: 15 }],
    },
    scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: "Max", policies: [{ type: "Percent", value: 100, periodSeconds: 15 }] },
  });
});
