/**
 * Which users a binding subject names (kube's rbac/validation appliesTo): a User by name, a Group by membership,
 * a ServiceAccount by its user name `system:serviceaccount:<namespace>:<name>`. Subjects and users map to keys
 * so bindings can be looked up by who they apply to instead of scanned.
 */
import type { Subject } from "./policy-types.ts";

const SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

/** A ServiceAccount subject without a namespace means the binding's own namespace. */
export function serviceAccountUsername(subject: Subject, bindingNamespace: string): string {
  return `${SERVICE_ACCOUNT_PREFIX}${subject.namespace || bindingNamespace}:${subject.name}`;
}

/** Whom a subject names: a user name or a group name. */
export interface SubjectKey {
  kind: "user" | "group";
  name: string;
}

/** The lookup key of a subject; null for kinds that apply to nobody. */
export function subjectKey(subject: Subject, bindingNamespace: string): SubjectKey | null {
  if (subject.kind === "User") return { kind: "user", name: subject.name };
  if (subject.kind === "Group") return { kind: "group", name: subject.name };
  if (subject.kind === "ServiceAccount") return { kind: "user", name: serviceAccountUsername(subject, bindingNamespace) };
  return null;
}

/** kube's describeSubject, for "allowed by" reasons. */
export function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind !== "ServiceAccount") return `${subject.kind} ${JSON.stringify(subject.name)}`;
  return `${subject.kind} ${JSON.stringify(`${subject.name}/${subject.namespace || bindingNamespace}`)}`;
}
