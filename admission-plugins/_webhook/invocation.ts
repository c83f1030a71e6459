/**
 * Whether a webhook is called for a request, and as which resource/kind (kube's ShouldCallHook): a rule must
 * cover the request, or, under matchPolicy Equivalent, an equivalent resource (same storage, another version);
 * then the namespace and object selectors must match.
 */
import type { AdmissionAttributes, GroupVersionKind, GroupVersionResourceRef } from "../../core/admission/types.ts";
import { newInternalError } from "../../core/api/errors.ts";
import { isEverything, matchesLabels } from "../../core/api/label-selector.ts";
import type { KubeObject } from "../../core/api/types.ts";
import { ruleMatches, type RuleSubject } from "./rules.ts";
import type { ParsedSelector, Webhook } from "./webhook.ts";

export interface Invocation {
  webhook: Webhook;
  /** The resource and kind the webhook is called as; differ from the request's only under Equivalent. */
  resource: GroupVersionResourceRef;
  kind: GroupVersionKind;
  subresource: string;
}

export interface EquivalentResource {
  resource: GroupVersionResourceRef;
  kind: GroupVersionKind;
}

export interface MatchContext {
  /** Other served versions of the same stored resource (with the subresource's kind in each). */
  equivalents(resource: GroupVersionResourceRef, subresource: string): EquivalentResource[];
  /** Labels of a namespace; throws when it cannot be read. */
  namespaceLabels(name: string): Promise<Record<string, string>>;
}

type Attributes = Pick<
  AdmissionAttributes,
  "operation" | "resource" | "subresource" | "namespace" | "name" | "kind" | "object" | "oldObject"
>;

function isNamespaceRequest(attributes: Attributes): boolean {
  return attributes.resource.group === "" && attributes.resource.resource === "namespaces";
}

/** kube's request namespace: a Namespace's own name for requests naming it, "" for other cluster-scoped ones. */
export function requestNamespace(attributes: Attributes): string {
  return isNamespaceRequest(attributes) && attributes.operation !== "CREATE" ? attributes.name : attributes.namespace;
}

function selectorOf(parsed: ParsedSelector) {
  if ("error" in parsed) throw newInternalError(parsed.error.message);
  return parsed.selector;
}

function matchingRuleTarget(webhook: Webhook, attributes: Attributes, context: MatchContext): Invocation | null {
  const subject: RuleSubject = { ...attributes, namespace: requestNamespace(attributes) };
  if (webhook.rules.some((rule) => ruleMatches(rule, subject))) {
    return { webhook, resource: attributes.resource, kind: attributes.kind, subresource: attributes.subresource };
  }
  if (webhook.matchPolicy !== "Equivalent") return null;
  const equivalents = context.equivalents(attributes.resource, attributes.subresource).filter((e) =>
    e.resource.version !== attributes.resource.version || e.resource.group !== attributes.resource.group
  );
  // Earlier rules win, as in kube.
  for (const rule of webhook.rules) {
    const equivalent = equivalents.find((e) => ruleMatches(rule, { ...subject, resource: e.resource }));
    if (equivalent) return { webhook, resource: equivalent.resource, kind: equivalent.kind, subresource: attributes.subresource };
  }
  return null;
}

async function namespaceSelected(webhook: Webhook, attributes: Attributes, context: MatchContext): Promise<boolean> {
  const namespace = requestNamespace(attributes);
  // Cluster-scoped resources other than Namespaces are never exempted by a namespace selector.
  if (namespace === "" && !isNamespaceRequest(attributes)) return true;
  const selector = selectorOf(webhook.namespaceSelector);
  if (isEverything(selector)) return true;
  const ownLabels = isNamespaceRequest(attributes) && attributes.subresource === "" &&
    (attributes.operation === "CREATE" || attributes.operation === "UPDATE");
  const labels = ownLabels ? attributes.object?.metadata?.labels : await context.namespaceLabels(namespace);
  return matchesLabels(selector, labels);
}

function objectSelected(webhook: Webhook, attributes: Attributes): boolean {
  const selector = selectorOf(webhook.objectSelector);
  if (isEverything(selector)) return true;
  const matches = (object: KubeObject | null) =>
    object !== null && typeof object.metadata === "object" && matchesLabels(selector, object.metadata.labels);
  return matches(attributes.object) || matches(attributes.oldObject);
}

/** The invocation of `webhook` for this request, or null when the webhook does not apply. */
export async function invocationFor(webhook: Webhook, attributes: Attributes, context: MatchContext): Promise<Invocation | null> {
  const invocation = matchingRuleTarget(webhook, attributes, context);
  if (!invocation) return null;
  if (!(await namespaceSelected(webhook, attributes, context))) return null;
  if (!objectSelected(webhook, attributes)) return null;
  return invocation;
}
