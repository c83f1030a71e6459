/** v1 ReplicationController (kube's ValidateReplicationControllerSpec): a map selector that the template's labels satisfy. */
import type { FieldError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { validateLabels } from "../../api/names.ts";
import { forbidden, nonNegative, record, required, stringMap } from "./_field.ts";
import { validateReplicaTemplate } from "./_workload.ts";

export function validateReplicationController(obj: KubeObject): FieldError[] {
  const spec = record(obj.spec);
  const selector = stringMap(spec.selector);
  const errors = [...nonNegative(spec.minReadySeconds, "spec.minReadySeconds"), ...nonNegative(spec.replicas, "spec.replicas")];
  if (Object.keys(selector).length === 0) errors.push(required("spec.selector"));
  const labelErrors = validateLabels(selector, "spec.selector");
  errors.push(...labelErrors);
  const asLabelSelector = labelErrors.length === 0 ? { matchLabels: selector } : undefined;
  errors.push(...validateReplicaTemplate(asLabelSelector, spec.template, "spec.template", {
    deadlineError: (path) => forbidden(path, "activeDeadlineSeconds in ReplicationController is not Supported"),
  }));
  return errors;
}
