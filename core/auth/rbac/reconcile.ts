/**
 * Bootstrap reconciliation (kube's pkg/registry/rbac/reconciliation, non-removing mode): a default role or
 * binding gets back what it is missing — rules, aggregation selectors, subjects, labels, annotations — and
 * keeps whatever users added. Objects annotated autoupdate "false" are left alone.
 */
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../../api/types.ts";
import { uncoveredRules } from "./covers.ts";
import { aggregationSelectorsOf, AUTOUPDATE_ANNOTATION, roleRefOf, rulesOf, type Subject, subjectsOf } from "./policy-types.ts";

export type Reconciliation = { action: "none" } | { action: "update" | "recreate"; object: KubeObject };

const NONE: Reconciliation = { action: "none" };

function isProtected(existing: KubeObject): boolean {
  return existing.metadata.annotations?.[AUTOUPDATE_ANNOTATION] === "false";
}

/** Expected keys are added; values already there win. */
function withMergedMeta(existing: KubeObject, expected: KubeObject): KubeObject {
  const next = structuredClone(existing);
  for (const field of ["labels", "annotations"] as const) {
    const merged = { ...expected.metadata[field], ...existing.metadata[field] };
    if (Object.keys(merged).length > 0) next.metadata[field] = merged;
  }
  return next;
}

function changed(next: KubeObject, existing: KubeObject): Reconciliation {
  return isDeepStrictEqual(next, existing) ? NONE : { action: "update", object: next };
}

export function reconcileClusterRole(existing: KubeObject, expected: KubeObject): Reconciliation {
  if (isProtected(existing)) return NONE;
  const next = withMergedMeta(existing, expected);
  const missing = uncoveredRules(rulesOf(existing), rulesOf(expected));
  if (missing.length > 0) next.rules = [...rulesOf(existing), ...missing];
  const expectedSelectors = aggregationSelectorsOf(expected);
  if (expectedSelectors) {
    const selectors = aggregationSelectorsOf(existing) ?? [];
    const added = expectedSelectors.filter((s) => !selectors.some((have) => isDeepStrictEqual(have, s)));
    if (added.length > 0) next.aggregationRule = { clusterRoleSelectors: [...selectors, ...added] };
  }
  return changed(next, existing);
}

const sameSubject = (a: Subject, b: Subject) => a.kind === b.kind && a.name === b.name && (a.namespace ?? "") === (b.namespace ?? "");

export function reconcileClusterRoleBinding(existing: KubeObject, expected: KubeObject): Reconciliation {
  if (isProtected(existing)) return NONE;
  const next = withMergedMeta(existing, expected);
  const subjects = subjectsOf(existing);
  const expectedRaw = Array.isArray(expected.subjects) ? expected.subjects : [];
  const missing = subjectsOf(expected).map((s, i) => subjects.some((have) => sameSubject(have, s)) ? null : expectedRaw[i]).filter((s) =>
    s !== null
  );
  if (missing.length > 0) next.subjects = [...(Array.isArray(existing.subjects) ? existing.subjects : []), ...missing];
  // roleRef cannot change in place: kube deletes and recreates the binding.
  if (!isDeepStrictEqual(roleRefOf(existing), roleRefOf(expected))) {
    next.roleRef = expected.roleRef;
    return { action: "recreate", object: next };
  }
  return changed(next, existing);
}
