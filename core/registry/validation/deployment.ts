/** apps/v1 Deployment and ReplicaSet (kube's ValidateDeploymentSpec / ValidateReplicaSetSpec and their updates). */
import type { FieldError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { forbidden, invalid, isSet, nonNegative, notSupported, record } from "./_field.ts";
import { immutableSelector, validateReplicaTemplate, validateRollingUpdate, validateWorkloadSelector } from "./_workload.ts";

const STRATEGY_TYPES = ["Recreate", "RollingUpdate"];

function validateStrategy(strategyValue: unknown, path: string): FieldError[] {
  const strategy = record(strategyValue);
  if (!isSet(strategy.type)) return [];
  if (strategy.type === "Recreate") {
    return isSet(strategy.rollingUpdate)
      ? [forbidden(`${path}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'")]
      : [];
  }
  if (strategy.type !== "RollingUpdate") return [notSupported(`${path}.type`, strategy.type, STRATEGY_TYPES)];
  return validateRollingUpdate(strategy.rollingUpdate, `${path}.rollingUpdate`);
}

export function validateDeployment(obj: KubeObject): FieldError[] {
  const spec = record(obj.spec);
  const errors = [
    ...nonNegative(spec.replicas, "spec.replicas"),
    ...validateWorkloadSelector(spec.selector, "spec.selector", "deployment"),
    ...validateReplicaTemplate(spec.selector, spec.template, "spec.template", {
      deadlineError: (path) => forbidden(path, "activeDeadlineSeconds in ReplicaSet is not Supported"),
    }),
    ...validateStrategy(spec.strategy, "spec.strategy"),
    ...nonNegative(spec.minReadySeconds, "spec.minReadySeconds"),
    ...nonNegative(spec.revisionHistoryLimit, "spec.revisionHistoryLimit"),
  ];
  const deadline = spec.progressDeadlineSeconds;
  if (typeof deadline === "number") {
    errors.push(...nonNegative(deadline, "spec.progressDeadlineSeconds"));
    if (deadline <= (typeof spec.minReadySeconds === "number" ? spec.minReadySeconds : 0)) {
      errors.push(invalid("spec.progressDeadlineSeconds", deadline, "must be greater than minReadySeconds"));
    }
  }
  return errors;
}

export function validateReplicaSet(obj: KubeObject): FieldError[] {
  const spec = record(obj.spec);
  return [
    ...nonNegative(spec.replicas, "spec.replicas"),
    ...nonNegative(spec.minReadySeconds, "spec.minReadySeconds"),
    // kube's ReplicaSet check says "deployment" too.
    ...validateWorkloadSelector(spec.selector, "spec.selector", "deployment"),
    ...validateReplicaTemplate(spec.selector, spec.template, "spec.template", {
      deadlineError: (path) => forbidden(path, "activeDeadlineSeconds in ReplicaSet is not Supported"),
    }),
  ];
}

/** Shared by Deployment, ReplicaSet and DaemonSet updates: the new object's rules plus the fixed selector. */
export function withImmutableSelector(validate: (obj: KubeObject) => FieldError[]): (obj: KubeObject, old: KubeObject) => FieldError[] {
  return (obj, old) => [...validate(obj), ...immutableSelector(record(obj.spec).selector, record(old.spec).selector)];
}
