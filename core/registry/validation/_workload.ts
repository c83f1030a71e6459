/** The selector + pod template rules every replicated workload shares (apps ValidatePodTemplateSpecForReplicaSet and kin). */
import type { FieldError } from "../../api/errors.ts";
import { goQuote } from "../../api/go-text.ts";
import { isValidPercent, type IsValidPercentResult } from "./_percent.ts";
import { immutable, invalid, isSet, nonNegative, notSupported, record, required, stringMap } from "./_field.ts";
import { goLabelSelector, goStringMap } from "./_go-value.ts";
import { validatePodTemplateSpec } from "./_pod-spec.ts";
import { selectorIsEmpty, selectorMatches, validateLabelSelector } from "./_selector.ts";

export const SELECTOR_MISMATCH = "`selector` does not match template `labels`";

/** `spec.selector` required, valid and non-empty ("empty selector is invalid for <kindWord>"). */
export function validateWorkloadSelector(selector: unknown, path: string, kindWord: string): FieldError[] {
  if (!isSet(selector)) return [required(path)];
  const errors = validateLabelSelector(selector, path);
  if (selectorIsEmpty(selector)) {
    errors.push(invalid(path, selector, `empty selector is invalid for ${kindWord}`, goLabelSelector(selector)));
  }
  return errors;
}

/** The template's labels must match the selector; selector errors already reported stop this check. */
export function templateLabelErrors(selector: unknown, template: unknown, path: string): FieldError[] {
  if (!isSet(selector) || selectorIsEmpty(selector) || validateLabelSelector(selector, "").length > 0) return [];
  const labels = stringMap(record(record(template).metadata).labels);
  return selectorMatches(selector, labels)
    ? []
    : [invalid(`${path}.metadata.labels`, labels, SELECTOR_MISMATCH, goStringMap(record(record(template).metadata).labels))];
}

export interface TemplateRules {
  /** The error for a template that sets activeDeadlineSeconds, which controllers of long-running pods refuse. */
  deadlineError: (path: string, value: unknown) => FieldError;
}

/** A template for pods that always restart: labels match, valid spec, restartPolicy Always, no activeDeadlineSeconds. */
export function validateReplicaTemplate(selector: unknown, template: unknown, path: string, rules: TemplateRules): FieldError[] {
  if (!isSet(template)) return [required(path)];
  const spec = record(record(template).spec);
  const errors = [...templateLabelErrors(selector, template, path), ...validatePodTemplateSpec(template, path)];
  if (isSet(spec.restartPolicy) && spec.restartPolicy !== "Always") {
    errors.push(notSupported(`${path}.spec.restartPolicy`, spec.restartPolicy, ["Always"]));
  }
  if (isSet(spec.activeDeadlineSeconds)) errors.push(rules.deadlineError(`${path}.spec.activeDeadlineSeconds`, spec.activeDeadlineSeconds));
  return errors;
}

/** apps/v1 selectors never change after creation. */
export function immutableSelector(next: unknown, old: unknown): FieldError[] {
  return immutable(next, old, "spec.selector", goLabelSelector(next));
}

function goIntOrString(value: unknown): string {
  return typeof value === "string"
    ? `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(value)}}`
    : `intstr.IntOrString{Type:0, IntVal:${value}, StrVal:""}`;
}

/** ValidatePositiveIntOrPercent plus IsNotMoreThan100Percent. */
function validateIntOrPercent(value: unknown, path: string): FieldError[] {
  if (!isSet(value)) return [];
  if (typeof value === "number") return nonNegative(value, path);
  const result: IsValidPercentResult = isValidPercent(String(value));
  if (result.errors.length > 0) return result.errors.map((m) => invalid(path, value, m, goIntOrString(value)));
  return result.percent > 100 ? [invalid(path, value, "must not be greater than 100%", goIntOrString(value))] : [];
}

/** An int-or-percent as a number for the "both zero" check; percentages count by their number. */
function intOrPercentValue(value: unknown): number {
  if (typeof value === "number") return value;
  return isSet(value) ? Number.parseInt(String(value), 10) || 0 : 0;
}

/** A Deployment's or DaemonSet's `rollingUpdate` at `path`: maxUnavailable and maxSurge valid, not both 0. */
export function validateRollingUpdate(rollingValue: unknown, path: string): FieldError[] {
  const rolling = record(rollingValue);
  const errors = [
    ...validateIntOrPercent(rolling.maxUnavailable, `${path}.maxUnavailable`),
    ...validateIntOrPercent(rolling.maxSurge, `${path}.maxSurge`),
  ];
  if (isSet(rollingValue) && intOrPercentValue(rolling.maxUnavailable) === 0 && intOrPercentValue(rolling.maxSurge) === 0) {
    errors.push(invalid(`${path}.maxUnavailable`, rolling.maxUnavailable ?? 0, "may not be 0 when `maxSurge` is 0"));
  }
  return errors;
}
