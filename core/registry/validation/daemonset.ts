/** apps/v1 DaemonSet (kube's ValidateDaemonSetSpec). */
import type { FieldError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { invalid, isSet, nonNegative, notSupported, record } from "./_field.ts";
import { validateReplicaTemplate, validateRollingUpdate, validateWorkloadSelector } from "./_workload.ts";

function validateUpdateStrategy(strategyValue: unknown, path: string): FieldError[] {
  const strategy = record(strategyValue);
  if (!isSet(strategy.type) || strategy.type === "OnDelete") return [];
  if (strategy.type !== "RollingUpdate") return [notSupported(`${path}.type`, strategy.type, ["OnDelete", "RollingUpdate"])];
  return validateRollingUpdate(strategy.rollingUpdate, `${path}.rollingUpdate`);
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
