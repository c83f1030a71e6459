import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import {
  BEHAVIOR_ANNOTATION,
  CONDITIONS_ANNOTATION,
  horizontalPodAutoscalerFromV1,
  horizontalPodAutoscalerToV1,
  horizontalPodAutoscalerV2,
  METRIC_SPECS_ANNOTATION,
  METRIC_STATUSES_ANNOTATION,
} from "./hpa.ts";

const target = { apiVersion: "apps/v1", kind: "Deployment", name: "web" };
const cpu = (utilization: number) => ({
  type: "Resource",
  resource: { name: "cpu", target: { type: "Utilization", averageUtilization: utilization } },
});
const pods = { type: "Pods", pods: { metric: { name: "qps" }, target: { type: "AverageValue", averageValue: "10" } } };

function v2(spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject {
  return {
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: { name: "web", namespace: "default", annotations: { team: "a" } },
    spec,
    ...(status ? { status } : {}),
  };
}

test("v1 targetCPUUtilizationPercentage is v2's Resource cpu Utilization metric (Convert_v1_HorizontalPodAutoscalerSpec_To_autoscaling_HorizontalPodAutoscalerSpec)", () => {
  const stored = horizontalPodAutoscalerFromV1({
    apiVersion: "autoscaling/v1",
    kind: "HorizontalPodAutoscaler",
    metadata: { name: "web" },
    spec: { scaleTargetRef: target, minReplicas: 2, maxReplicas: 5, targetCPUUtilizationPercentage: 60 },
  });
  expect(stored.apiVersion).toBe("autoscaling/v2");
  expect(stored.spec).toEqual({ scaleTargetRef: target, minReplicas: 2, maxReplicas: 5, metrics: [cpu(60)] });
});

test("a v1 autoscaler without a CPU target gets kube's explicit 80% default (autoscaling.DefaultCPUUtilization)", () => {
  const stored = horizontalPodAutoscalerFromV1({
    apiVersion: "autoscaling/v1",
    kind: "HorizontalPodAutoscaler",
    metadata: { name: "web" },
    spec: { scaleTargetRef: target, maxReplicas: 3 },
  });
  expect((stored.spec as { metrics: unknown }).metrics).toEqual([cpu(80)]);
});

test("v2 fields v1 has no place for go into the round-trip annotations (Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler)", () => {
  const condition = { type: "AbleToScale", status: "True", lastTransitionTime: "2026-01-01T00:00:00Z", reason: "Ready", message: "ok" };
  const v1 = horizontalPodAutoscalerToV1(v2(
    {
      scaleTargetRef: target,
      minReplicas: 1,
      maxReplicas: 4,
      metrics: [cpu(50), pods],
      behavior: { scaleDown: { stabilizationWindowSeconds: 60, policies: [{ type: "Percent", value: 100, periodSeconds: 15 }] } },
    },
    {
      currentReplicas: 2,
      desiredReplicas: 3,
      currentMetrics: [{ type: "Resource", resource: { name: "cpu", current: { averageUtilization: 42 } } }],
      conditions: [condition],
    },
  ));
  expect(v1.spec).toEqual({ scaleTargetRef: target, minReplicas: 1, maxReplicas: 4, targetCPUUtilizationPercentage: 50 });
  expect(v1.status).toEqual({ currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 42 });
  const annotations = v1.metadata.annotations!;
  expect(annotations.team).toBe("a");
  expect(JSON.parse(annotations[METRIC_SPECS_ANNOTATION])).toEqual([{
    type: "Pods",
    pods: { metricName: "qps", targetAverageValue: "10" },
  }]);
  expect(JSON.parse(annotations[METRIC_STATUSES_ANNOTATION])).toEqual([{
    type: "Resource",
    resource: { name: "cpu", currentAverageUtilization: 42, currentAverageValue: "0" },
  }]);
  expect(JSON.parse(annotations[CONDITIONS_ANNOTATION])).toEqual([condition]);
  // kube marshals its internal behavior type: Go field names, nil pointers as null.
  expect(annotations[BEHAVIOR_ANNOTATION]).toBe(
    '{"ScaleUp":null,"ScaleDown":{"StabilizationWindowSeconds":60,"SelectPolicy":null,"Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}]}}',
  );
});

test("v2 → v1 → v2 keeps every metric, the behavior and the conditions, other metrics before the CPU one", () => {
  const original = v2(
    {
      scaleTargetRef: target,
      minReplicas: 1,
      maxReplicas: 4,
      metrics: [pods, cpu(50)],
      behavior: { scaleUp: { selectPolicy: "Min", policies: [{ type: "Pods", value: 2, periodSeconds: 30 }] } },
    },
    { desiredReplicas: 3, conditions: [{ type: "ScalingActive", status: "False" }] },
  );
  const back = horizontalPodAutoscalerFromV1(horizontalPodAutoscalerToV1(original));
  expect(back.spec).toEqual(original.spec);
  expect(back.status).toEqual(original.status);
  expect(back.metadata.annotations).toEqual({ team: "a" });
});

test("unreadable round-trip annotations are dropped, not an error", () => {
  const stored = horizontalPodAutoscalerFromV1({
    apiVersion: "autoscaling/v1",
    kind: "HorizontalPodAutoscaler",
    metadata: { name: "web", annotations: { [METRIC_SPECS_ANNOTATION]: "abc", [BEHAVIOR_ANNOTATION]: "" } },
    spec: { scaleTargetRef: target, maxReplicas: 3, targetCPUUtilizationPercentage: 70 },
  });
  expect(stored.metadata.annotations).toBeUndefined();
  expect((stored.spec as { metrics: unknown; behavior?: unknown }).metrics).toEqual([cpu(70)]);
  expect((stored.spec as { behavior?: unknown }).behavior).toBeUndefined();
});

test("v2 objects never carry the round-trip annotations (DropRoundTripHorizontalPodAutoscalerAnnotations)", () => {
  const written = v2({ scaleTargetRef: target, maxReplicas: 2 });
  written.metadata.annotations = { team: "a", [CONDITIONS_ANNOTATION]: "[]" };
  expect(horizontalPodAutoscalerV2(written).metadata.annotations).toEqual({ team: "a" });
});
