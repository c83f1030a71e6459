/**
 * What a custom plugin's refusal does, per plugin: `validationActions` in its AdmissionConfiguration
 * `configuration`, with the meaning kube gives a ValidatingAdmissionPolicyBinding's validationActions (1.27):
 * Deny refuses the request (the default), Warn sends the refusal as a `Warning: 299` header, Audit adds it to
 * the request's `validation.policy.admission.k8s.io/validation_failure` audit annotation (a JSON list of
 * {message, policy, validationActions}). Deny and Warn together are refused, as kube's validation does.
 * Only refusals (4xx) are subject to the actions; a plugin that fails (5xx, timeout) fails the request.
 */
import * as v from "valibot";
import { duplicate, invalid, parseConfig } from "../config/mod.ts";
import type { StatusError } from "../api/errors.ts";

export type ValidationAction = "Deny" | "Warn" | "Audit";

export const VALIDATION_FAILURE_ANNOTATION = "validation.policy.admission.k8s.io/validation_failure";

const ACTIONS = v.pipe(
  v.array(v.picklist(["Deny", "Warn", "Audit"])),
  v.minLength(1, "Required value"),
  v.check((actions) => new Set(actions).size === actions.length, duplicate),
  v.check((actions) => !(actions.includes("Deny") && actions.includes("Warn")), invalid("Deny and Warn may not be used together")),
);

const SECTION = v.looseObject({ validationActions: v.optional(ACTIONS) });

/** The plugin's actions and its configuration without the field (the plugin never sees it). */
export function readValidationActions(configuration: unknown, source: string): { actions: ValidationAction[]; pluginConfig: unknown } {
  if (typeof configuration !== "object" || configuration === null || !("validationActions" in configuration)) {
    return { actions: ["Deny"], pluginConfig: configuration };
  }
  const { validationActions, ...rest } = parseConfig(SECTION, configuration, source);
  return { actions: validationActions ?? ["Deny"], pluginConfig: rest };
}

/** One entry of the validation_failure annotation. */
export interface ValidationFailure {
  message: string;
  policy: string;
  validationActions: ValidationAction[];
}

/** Whether a refusal stops the request under `actions`: only a 4xx under Deny (or anything 5xx). */
export function refuses(actions: readonly ValidationAction[], refusal: StatusError): boolean {
  return refusal.code >= 500 || actions.includes("Deny");
}

/** The Warning text for a refusal under Warn (kube's policy dispatcher wording, naming the plugin). */
export function violationWarning(pluginName: string, message: string): string {
  return `Validation failed for admission plugin '${pluginName}': ${message}`;
}
