/**
 * One webhook entry of a Validating/MutatingWebhookConfiguration (admissionregistration.k8s.io/v1), with the
 * API's defaults applied and its selectors parsed once, as kube's webhook accessor does.
 */
import type { StatusError } from "../../core/api/errors.ts";
import { type LabelSelector, labelSelectorFromObject } from "../../core/api/label-selector.ts";
import type { KubeObject } from "../../core/api/types.ts";
import type { ClientConfig } from "../../core/webhook/mod.ts";

export interface Rule {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

export interface Webhook {
  /** `<configuration>/<webhook>/<index>`: identifies the hook across reinvocation passes. */
  uid: string;
  configurationName: string;
  name: string;
  clientConfig: ClientConfig;
  rules: Rule[];
  failurePolicy: "Fail" | "Ignore";
  matchPolicy: "Exact" | "Equivalent";
  /** Unset only on objects stored by an older version; kube then refuses dry runs. */
  sideEffects?: string;
  timeoutSeconds: number;
  admissionReviewVersions: string[];
  reinvocationPolicy: "Never" | "IfNeeded";
  namespaceSelector: ParsedSelector;
  objectSelector: ParsedSelector;
}

/** A selector, or why it could not be parsed (reported when the hook is matched, as kube does). */
export type ParsedSelector = { selector: LabelSelector } | { error: StatusError };

type MetaSelector = Parameters<typeof labelSelectorFromObject>[0];

function parseSelector(selector: MetaSelector): ParsedSelector {
  try {
    // The API defaults an absent selector to {} (every object).
    return { selector: labelSelectorFromObject(selector ?? {}) };
  } catch (error) {
    return { error: error as StatusError };
  }
}

/** The webhooks of one configuration object, in their listed order. */
export function webhooksOf(configuration: KubeObject): Webhook[] {
  const configurationName = configuration.metadata.name ?? "";
  const entries = Array.isArray(configuration.webhooks) ? (configuration.webhooks as Record<string, unknown>[]) : [];
  return entries.map((entry, index) => ({
    uid: `${configurationName}/${entry.name}/${index}`,
    configurationName,
    name: String(entry.name ?? ""),
    clientConfig: (entry.clientConfig ?? {}) as ClientConfig,
    rules: (entry.rules ?? []) as Rule[],
    failurePolicy: entry.failurePolicy === "Ignore" ? "Ignore" : "Fail",
    matchPolicy: entry.matchPolicy === "Exact" ? "Exact" : "Equivalent",
    sideEffects: typeof entry.sideEffects === "string" ? entry.sideEffects : undefined,
    timeoutSeconds: typeof entry.timeoutSeconds === "number" ? entry.timeoutSeconds : 10,
    admissionReviewVersions: (entry.admissionReviewVersions ?? []) as string[],
    reinvocationPolicy: entry.reinvocationPolicy === "IfNeeded" ? "IfNeeded" : "Never",
    namespaceSelector: parseSelector(entry.namespaceSelector as MetaSelector),
    objectSelector: parseSelector(entry.objectSelector as MetaSelector),
  }));
}
