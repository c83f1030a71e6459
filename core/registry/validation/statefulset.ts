/** apps/v1 StatefulSet (kube's ValidateStatefulSetSpec and the short list of fields an update may change). */
import type { FieldError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { deepEqual, forbidden, invalid, isSet, nonNegative, record } from "./_field.ts";
import { validateReplicaTemplate, validateWorkloadSelector } from "./_workload.ts";

export const STATEFULSET_UPDATE_FORBIDDEN =
  "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";
const UPDATABLE = ["replicas", "ordinals", "template", "updateStrategy", "persistentVolumeClaimRetentionPolicy", "minReadySeconds"];

export function validateStatefulSet(obj: KubeObject): FieldError[] {
  const spec = record(obj.spec);
  const errors: FieldError[] = [];
  const policy = spec.podManagementPolicy;
  if (isSet(policy) && policy !== "OrderedReady" && policy !== "Parallel") {
    errors.push(invalid("spec.podManagementPolicy", policy, "must be 'OrderedReady' or 'Parallel'"));
  }
  const strategy = record(spec.updateStrategy);
  if (strategy.type === "OnDelete" && isSet(strategy.rollingUpdate)) {
    errors.push(invalid("spec.updateStrategy.rollingUpdate", strategy.rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'"));
  } else if (isSet(strategy.type) && strategy.type !== "OnDelete" && strategy.type !== "RollingUpdate") {
    errors.push(invalid("spec.updateStrategy", strategy, "must be 'RollingUpdate' or 'OnDelete'"));
  }
  errors.push(
    ...nonNegative(spec.replicas, "spec.replicas"),
    ...nonNegative(spec.minReadySeconds, "spec.minReadySeconds"),
    ...validateWorkloadSelector(spec.selector, "spec.selector", "statefulset"),
    ...validateReplicaTemplate(spec.selector, spec.template, "spec.template", {
      deadlineError: (path) => forbidden(path, "activeDeadlineSeconds in StatefulSet is not Supported"),
    }),
  );
  return errors;
}

export function validateStatefulSetUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const spec = record(obj.spec);
  const oldSpec = record(old.spec);
  const munged = { ...spec, ...Object.fromEntries(UPDATABLE.map((k) => [k, oldSpec[k]])) };
  const errors = validateStatefulSet(obj);
  if (!deepEqual(munged, oldSpec)) errors.push(forbidden("spec", STATEFULSET_UPDATE_FORBIDDEN));
  return errors;
}
