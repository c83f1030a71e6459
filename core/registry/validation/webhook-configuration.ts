/**
 * admissionregistration.k8s.io/v1 Validating/MutatingWebhookConfiguration (spec 2.9; kube's
 * admissionregistration validation): fully qualified unique webhook names, rules, enums, clientConfig, review versions.
 */
import type { FieldError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { isDNS1035Label, isDNS1123Subdomain } from "../../api/names.ts";
import { goStringSlice } from "../../api/go-text.ts";
import { duplicate, invalid, isSet, list, notSupported, record, required, text } from "./_field.ts";
import { validateLabelSelector } from "./_selector.ts";
import { validateClientConfig } from "./_webhook-client.ts";
import { validateRuleWithOperations } from "./_webhook-rules.ts";

export const ACCEPTED_REVIEW_VERSIONS = ["v1", "v1beta1"];
const FAILURE_POLICIES = ["Fail", "Ignore"];
const MATCH_POLICIES = ["Equivalent", "Exact"];
const SIDE_EFFECTS = ["None", "NoneOnDryRun"];
const REINVOCATION_POLICIES = ["IfNeeded", "Never"];

function isFullyQualifiedName(name: string, path: string): FieldError[] {
  if (!name) return [required(path)];
  const errors = isDNS1123Subdomain(name);
  if (errors.length > 0) return [invalid(path, name, errors.join(","))];
  return name.split(".").length < 3 ? [invalid(path, name, "should be a domain with at least three segments separated by dots")] : [];
}

function enumIfSet(value: unknown, path: string, supported: string[]): FieldError[] {
  return isSet(value) && !supported.includes(text(value)) ? [notSupported(path, value, supported)] : [];
}

function validateReviewVersions(versionsValue: unknown, path: string, requireKnown: boolean): FieldError[] {
  const versions = list(versionsValue).map(String);
  if (versions.length === 0) return [required(path, `must specify one of ${ACCEPTED_REVIEW_VERSIONS.join(", ")}`)];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) return errors.push(invalid(`${path}[${i}]`, v, "duplicate version"));
    seen.add(v);
    for (const m of isDNS1035Label(v)) errors.push(invalid(`${path}[${i}]`, v, m));
  });
  if (requireKnown && !versions.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v))) {
    errors.push(invalid(path, versions, `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(", ")}`, goStringSlice(versions)));
  }
  return errors;
}

function validateWebhook(hookValue: unknown, path: string, mutating: boolean): FieldError[] {
  const hook = record(hookValue);
  const errors = isFullyQualifiedName(text(hook.name), `${path}.name`);
  list(hook.rules).forEach((rule, i) => errors.push(...validateRuleWithOperations(rule, `${path}.rules[${i}]`)));
  errors.push(...enumIfSet(hook.failurePolicy, `${path}.failurePolicy`, FAILURE_POLICIES));
  errors.push(...enumIfSet(hook.matchPolicy, `${path}.matchPolicy`, MATCH_POLICIES));
  if (!isSet(hook.sideEffects)) errors.push(required(`${path}.sideEffects`, `must specify one of ${SIDE_EFFECTS.join(", ")}`));
  else errors.push(...enumIfSet(hook.sideEffects, `${path}.sideEffects`, SIDE_EFFECTS));
  const timeout = hook.timeoutSeconds;
  if (typeof timeout === "number" && (timeout > 30 || timeout < 1)) {
    errors.push(invalid(`${path}.timeoutSeconds`, timeout, "the timeout value must be between 1 and 30 seconds"));
  }
  errors.push(...validateLabelSelector(hook.namespaceSelector, `${path}.namespaceSelector`));
  errors.push(...validateLabelSelector(hook.objectSelector, `${path}.objectSelector`));
  if (mutating) errors.push(...enumIfSet(hook.reinvocationPolicy, `${path}.reinvocationPolicy`, REINVOCATION_POLICIES));
  errors.push(...validateClientConfig(hook.clientConfig, `${path}.clientConfig`));
  return errors;
}

interface ConfigurationRules {
  requireKnownVersions: boolean;
  requireUniqueNames: boolean;
}

function validateConfiguration(obj: KubeObject, mutating: boolean, rules: ConfigurationRules): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  list(obj.webhooks).forEach((hookValue, i) => {
    const hook = record(hookValue);
    const path = `webhooks[${i}]`;
    errors.push(...validateWebhook(hook, path, mutating));
    errors.push(...validateReviewVersions(hook.admissionReviewVersions, `${path}.admissionReviewVersions`, rules.requireKnownVersions));
    const name = text(hook.name);
    if (rules.requireUniqueNames && name && names.has(name)) errors.push(duplicate(`${path}.name`, name));
    names.add(name);
  });
  return errors;
}

/** On update kube keeps tolerating what an existing object already had (unknown review versions, repeated names). */
function rulesFromOld(old: KubeObject | undefined): ConfigurationRules {
  if (!old) return { requireKnownVersions: true, requireUniqueNames: true };
  const hooks = list(old.webhooks).map(record);
  const names = hooks.map((h) => text(h.name));
  return {
    requireKnownVersions: hooks.every((h) => list(h.admissionReviewVersions).some((v) => ACCEPTED_REVIEW_VERSIONS.includes(String(v)))),
    requireUniqueNames: new Set(names).size === names.length,
  };
}

export function validateValidatingWebhookConfiguration(obj: KubeObject, old?: KubeObject): FieldError[] {
  return validateConfiguration(obj, false, rulesFromOld(old));
}

export function validateMutatingWebhookConfiguration(obj: KubeObject, old?: KubeObject): FieldError[] {
  return validateConfiguration(obj, true, rulesFromOld(old));
}
