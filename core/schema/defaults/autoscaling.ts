/** autoscaling/v2 and v1 defaults of HorizontalPodAutoscaler (pkg/apis/autoscaling/v2/defaults.go, v1/defaults.go). */
import { isPlainObject, type KubeObject } from "../../api/types.ts";
import { defaultPointer, type Fields, isEmpty, isUnset, objectAt } from "./_fields.ts";
import type { KindDefaulters } from "./_registry.ts";

/** Without metrics an autoscaler aims at 80% average CPU utilization. */
const DEFAULT_METRICS = [{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 80 } } }];

/** kube's long-standing HPA pace: scale up by 4 pods or 100% each 15 s, scale down by 100% each 15 s. */
const SCALE_UP: Fields = {
  stabilizationWindowSeconds: 0,
  selectPolicy: "Max",
  policies: [{ type: "Pods", value: 4, periodSeconds: 15 }, { type: "Percent", value: 100, periodSeconds: 15 }],
};
/** No scale-down stabilization window: the controller's command-line flag decides it. */
const SCALE_DOWN: Fields = { selectPolicy: "Max", policies: [{ type: "Percent", value: 100, periodSeconds: 15 }] };

/** The defaults, overridden by every field the client set (kube's copyHPAScalingRules). */
function scalingRules(given: unknown, defaults: Fields): Fields {
  const rules = structuredClone(defaults);
  if (!isPlainObject(given)) return rules;
  for (const [key, value] of Object.entries(given)) if (!isUnset(value)) rules[key] = value;
  return rules;
}

function defaultHorizontalPodAutoscaler(hpa: KubeObject): void {
  const spec = objectAt(hpa, "spec");
  if (!spec) return;
  defaultPointer(spec, "minReplicas", 1);
  if (isEmpty(spec.metrics)) spec.metrics = structuredClone(DEFAULT_METRICS);
  // Behavior is filled in only when the client gives one.
  const behavior = objectAt(spec, "behavior");
  if (!behavior) return;
  behavior.scaleUp = scalingRules(behavior.scaleUp, SCALE_UP);
  behavior.scaleDown = scalingRules(behavior.scaleDown, SCALE_DOWN);
}

export const AUTOSCALING_DEFAULTERS: KindDefaulters = {
  group: "autoscaling",
  version: "v2",
  kinds: { HorizontalPodAutoscaler: defaultHorizontalPodAutoscaler },
};

/** v1 defaults only minReplicas; the CPU target comes with the conversion to the stored form (registry/conversion). */
export const AUTOSCALING_V1_DEFAULTERS: KindDefaulters = {
  group: "autoscaling",
  version: "v1",
  kinds: {
    HorizontalPodAutoscaler: (hpa) => {
      const spec = objectAt(hpa, "spec");
      if (spec) defaultPointer(spec, "minReplicas", 1);
    },
  },
};
