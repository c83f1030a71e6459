/** apps/v1 DaemonSet (kube's ValidateDaemonSetSpec). */
import type { FieldError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { invalid, isSet, nonNegative, notSupported, record } from "./_field.ts";
import { intOrPercentValue, validateIntOrPercent, validateReplicaTemplate, validateWorkloadSelector } from "./_workload.ts";

function validateUpdateStrategy(strategyValue: unknown, path: string): FieldError[] {
  const strategy = record(strategyValue);
  if (!isSet(strategy.type) || strategy.type === "OnDelete") return [];
  if (strategy.type !== "RollingUpdate") return [notSupported(`${path}.type`, strategy.type, ["OnDelete", "RollingUpdate"])];
  const rolling = record(strategy.rollingUpdate);
  const errors = [
    ...validateIntOrPercent(rolling.maxUnavailable, `${path}.rollingUpdate.maxUnavailable`),
    ...validateIntOrPercent(rolling.maxSurge, `${path}.rollingUpdate.maxSurge`),
  ];
  if (isSet(strategy.rollingUpdate) && intOrPercentValue(rolling.maxUnavailable) === 0 && intOrPercentValue(rolling.maxSurge) === 0) {
    errors.push(invalid(`${path}.rollingUpdate.maxUnavailable`, rolling.maxUnavailable ?? 0, "may not be 0 when `maxSurge` is 0"));
  }
  return errors;
}

export function validateDaemonSet(obj: KubeObject): FieldError[] {
  const spec = record(obj.spec);
  return [
    ...validateWorkloadSelector(spec.selector, "spec.selector", "daemonset"),
    ...validateReplicaTemplate(spec.selector, spec.template, "spec.template", {
      deadlineError: (path, value) => invalid(path, value, "activeDeadlineSeconds must be nil for daemon set pods"),
    }),
    ...nonNegative(spec.minReadySeconds, "spec.minReadySeconds"),
    ...nonNegative(spec.revisionHistoryLimit, "spec.revisionHistoryLimit"),
    ...validateUpdateStrategy(spec.updateStrategy, "spec.updateStrategy"),
  ];
}
