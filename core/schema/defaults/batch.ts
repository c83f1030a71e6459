/** batch/v1 defaults (pkg/apis/batch/v1/defaults.go of kube 1.26). */
import { isPlainObject, type KubeObject } from "../../api/types.ts";
import { defaultTemplateAt } from "./pod-spec.ts";
import { defaultPointer, defaultString, isEmpty, isUnset, objectAt, objectsAt } from "./_fields.ts";
import type { KindDefaulters } from "./_registry.ts";

const BACKOFF_LIMIT = 6;

function defaultJob(job: KubeObject): void {
  const spec = objectAt(job, "spec");
  if (!spec) return;
  // A non-parallel job may leave both unset; then both are 1. Completions alone stays unset otherwise.
  if (isUnset(spec.completions) && isUnset(spec.parallelism)) spec.completions = 1;
  defaultPointer(spec, "parallelism", 1);
  defaultPointer(spec, "backoffLimit", BACKOFF_LIMIT);
  const templateLabels = objectAt(objectAt(spec, "template"), "metadata")?.labels;
  if (isPlainObject(templateLabels) && isEmpty(job.metadata.labels)) job.metadata.labels = { ...templateLabels } as Record<string, string>;
  defaultPointer(spec, "completionMode", "NonIndexed");
  defaultPointer(spec, "suspend", false);
  for (const rule of objectsAt(objectAt(spec, "podFailurePolicy"), "rules")) {
    for (const pattern of objectsAt(rule, "onPodConditions")) defaultString(pattern, "status", "True");
  }
  defaultTemplateAt(spec);
}

/** The job template gets pod template defaults only: kube does not run the Job defaulter on it. */
function defaultCronJob(cronJob: KubeObject): void {
  const spec = objectAt(cronJob, "spec");
  if (!spec) return;
  defaultString(spec, "concurrencyPolicy", "Allow");
  defaultPointer(spec, "suspend", false);
  defaultPointer(spec, "successfulJobsHistoryLimit", 3);
  defaultPointer(spec, "failedJobsHistoryLimit", 1);
  defaultTemplateAt(objectAt(objectAt(spec, "jobTemplate"), "spec"));
}

export const BATCH_DEFAULTERS: KindDefaulters = {
  group: "batch",
  version: "v1",
  kinds: { Job: defaultJob, CronJob: defaultCronJob },
};
