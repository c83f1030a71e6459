/** batch/v1 Job (kube's ValidateJobSpec and ValidateJobSpecUpdate). */
import type { FieldError } from "../../api/errors.ts";
import { parseJSONExact } from "../../api/exact-integers.ts";
import type { KubeObject } from "../../api/types.ts";
import { deepEqual, immutable, invalid, isSet, nonNegative, notSupported, record, required } from "./_field.ts";
import { goLabelSelector } from "./_go-value.ts";
import { validatePodTemplateSpec } from "./_pod-spec.ts";
import { validateLabelSelector } from "./_selector.ts";
import { templateLabelErrors } from "./_workload.ts";

const COMPLETION_MODES = ["NonIndexed", "Indexed"];
const JOB_RESTART_POLICIES = ["OnFailure", "Never"];

/** The job spec at `path` ("spec", or "spec.jobTemplate.spec" inside a CronJob). */
export function validateJobSpec(specValue: unknown, path: string): FieldError[] {
  const spec = record(specValue);
  const errors = [
    ...nonNegative(spec.parallelism, `${path}.parallelism`),
    ...nonNegative(spec.completions, `${path}.completions`),
    ...nonNegative(spec.activeDeadlineSeconds, `${path}.activeDeadlineSeconds`),
    ...nonNegative(spec.backoffLimit, `${path}.backoffLimit`),
    ...nonNegative(spec.ttlSecondsAfterFinished, `${path}.ttlSecondsAfterFinished`),
  ];
  if (spec.manualSelector === true && !isSet(spec.selector)) errors.push(required(`${path}.selector`));
  errors.push(...validateLabelSelector(spec.selector, `${path}.selector`));
  if (isSet(spec.completionMode) && !COMPLETION_MODES.includes(String(spec.completionMode))) {
    errors.push(notSupported(`${path}.completionMode`, spec.completionMode, COMPLETION_MODES));
  }
  if (spec.completionMode === "Indexed" && !isSet(spec.completions)) {
    errors.push(required(`${path}.completions`, "when completion mode is Indexed"));
  }
  errors.push(...templateLabelErrors(spec.selector, spec.template, `${path}.template`));
  errors.push(...validatePodTemplateSpec(spec.template, `${path}.template`));
  const restartPolicy = record(record(spec.template).spec).restartPolicy;
  if (isSet(restartPolicy) && !JOB_RESTART_POLICIES.includes(String(restartPolicy))) {
    errors.push(notSupported(`${path}.template.spec.restartPolicy`, restartPolicy, JOB_RESTART_POLICIES));
  }
  return errors;
}

export function validateJob(obj: KubeObject): FieldError[] {
  return validateJobSpec(obj.spec, "spec");
}

/** The template without what a suspended Job that never started may change (scheduling, labels, annotations). */
function schedulingFree(template: unknown): unknown {
  if (!isSet(template)) return template;
  const copy = parseJSONExact(JSON.stringify(template)) as { spec?: unknown; metadata?: unknown };
  for (const key of ["nodeSelector", "affinity", "tolerations"]) delete record(copy.spec)[key];
  for (const key of ["labels", "annotations"]) delete record(copy.metadata)[key];
  if (Object.keys(record(copy.metadata)).length === 0) delete copy.metadata;
  return copy;
}

function templateChanged(next: unknown, old: KubeObject): boolean {
  const oldTemplate = record(old.spec).template;
  const neverStarted = record(old.spec).suspend === true && !isSet(record(old.status).startTime);
  return neverStarted ? !deepEqual(schedulingFree(next), schedulingFree(oldTemplate)) : !deepEqual(next, oldTemplate);
}

/** The selector, completions, completion mode and pod template are fixed once the Job exists. */
export function validateJobUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const spec = record(obj.spec);
  const oldSpec = record(old.spec);
  return [
    ...validateJob(obj),
    ...immutable(spec.selector, oldSpec.selector, "spec.selector", goLabelSelector(spec.selector)),
    ...immutable(spec.completions, oldSpec.completions, "spec.completions"),
    ...immutable(spec.completionMode, oldSpec.completionMode, "spec.completionMode"),
    ...(templateChanged(spec.template, old) ? [invalid("spec.template", spec.template, "field is immutable")] : []),
  ];
}
