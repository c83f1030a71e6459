/** batch/v1 CronJob (kube's ValidateCronJobCreate: schedule, timeZone, policies, and the job template). */
import type { FieldError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { cronScheduleError, isKnownTimeZone } from "../../api/cron.ts";
import { invalid, isSet, nonNegative, notSupported, record, required, text } from "./_field.ts";
import { goLabelSelector } from "./_go-value.ts";
import { validateJobSpec } from "./job.ts";

const CONCURRENCY_POLICIES = ["Allow", "Forbid", "Replace"];
/** Job names get an 11-character suffix and must stay within 63 characters. */
const MAX_CRONJOB_NAME = 52;

function validateTimeZone(zone: unknown, path: string): FieldError[] {
  if (!isSet(zone)) return [];
  const name = text(zone);
  if (name === "") return [invalid(path, name, "timeZone must be nil or non-empty string")];
  const badPart = name.split("/").some((p) => p === "." || p === ".." || p.startsWith("-") || !/^[A-Za-z.\-_0-9+]{1,14}$/.test(p));
  if (badPart) return [invalid(path, name, `unknown time zone ${name}`)];
  if (name.toLowerCase() === "local") {
    return [invalid(path, name, "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones")];
  }
  return isKnownTimeZone(name) ? [] : [invalid(path, name, `unknown time zone ${name}`)];
}

function validateSchedule(schedule: unknown, timeZone: unknown): FieldError[] {
  const spec = text(schedule);
  if (spec === "") return [required("spec.schedule")];
  const errors: FieldError[] = [];
  const problem = cronScheduleError(spec, isKnownTimeZone);
  if (problem) errors.push(invalid("spec.schedule", spec, problem));
  if (spec.includes("TZ") && isSet(timeZone)) {
    errors.push(invalid("spec.schedule", spec, "cannot use both timeZone field and TZ or CRON_TZ in schedule"));
  }
  return errors;
}

export function validateCronJob(obj: KubeObject): FieldError[] {
  const spec = record(obj.spec);
  const name = text(obj.metadata.name);
  const errors: FieldError[] = [];
  if (name.length > MAX_CRONJOB_NAME) errors.push(invalid("metadata.name", name, `must be no more than ${MAX_CRONJOB_NAME} characters`));
  errors.push(...validateSchedule(spec.schedule, spec.timeZone), ...validateTimeZone(spec.timeZone, "spec.timeZone"));
  if (isSet(spec.concurrencyPolicy) && !CONCURRENCY_POLICIES.includes(text(spec.concurrencyPolicy))) {
    errors.push(notSupported("spec.concurrencyPolicy", spec.concurrencyPolicy, CONCURRENCY_POLICIES));
  }
  errors.push(
    ...nonNegative(spec.startingDeadlineSeconds, "spec.startingDeadlineSeconds"),
    ...nonNegative(spec.successfulJobsHistoryLimit, "spec.successfulJobsHistoryLimit"),
    ...nonNegative(spec.failedJobsHistoryLimit, "spec.failedJobsHistoryLimit"),
  );
  const jobSpec = record(record(spec.jobTemplate).spec);
  errors.push(...validateJobSpec(jobSpec, "spec.jobTemplate.spec"));
  if (isSet(jobSpec.selector)) {
    errors.push(
      invalid("spec.jobTemplate.spec.selector", jobSpec.selector, "`selector` will be auto-generated", goLabelSelector(jobSpec.selector)),
    );
  }
  if (jobSpec.manualSelector === true) errors.push(notSupported("spec.jobTemplate.spec.manualSelector", true, ["nil", "false"]));
  return errors;
}
