/**
 * Whether one set of rules grants everything another does (kube's rbac/validation policy_comparator.go), and
 * the compact rule text kube's escalation errors print.
 */
import type { PolicyRule } from "./policy-types.ts";

const ALL = "*";

/** Splits a rule into rules of one group, resource, verb (and resource name), or one URL and verb. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const parts: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        const names = rule.resourceNames ?? [];
        if (names.length === 0) parts.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        for (const name of names) parts.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs) parts.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return parts;
}

function hasAll(set: string[] | undefined, wanted: string[] | undefined): boolean {
  const owned = new Set(set ?? []);
  return (wanted ?? []).every((w) => owned.has(w));
}

function resourcesCovered(owned: string[], wanted: string[]): boolean {
  if (owned.includes(ALL)) return true;
  return wanted.every((path) => {
    if (owned.includes(path)) return true;
    const slash = path.indexOf("/");
    return slash >= 0 && owned.includes(`*/${path.slice(slash + 1)}`);
  });
}

function urlCovers(owner: string, path: string): boolean {
  return owner === path || (owner.endsWith("*") && path.startsWith(owner.replace(/\*+$/, "")));
}

/** `owner` (any shape) covers `sub` (one verb, resource and name at most). */
function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = owner.verbs.includes(ALL) || hasAll(owner.verbs, sub.verbs);
  const groups = (owner.apiGroups ?? []).includes(ALL) || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourcesCovered(owner.resources ?? [], sub.resources ?? []);
  const urls = (sub.nonResourceURLs ?? []).every((path) => (owner.nonResourceURLs ?? []).some((o) => urlCovers(o, path)));
  const ownerNames = owner.resourceNames ?? [];
  const names = ownerNames.length === 0 || ((sub.resourceNames ?? []).length > 0 && hasAll(ownerNames, sub.resourceNames));
  return verbs && groups && resources && urls && names;
}

/** One text per rule content, so rules equal field by field (in any key order) compare equal. */
function ruleText(rule: PolicyRule): string {
  const fields = [rule.apiGroups, rule.resources, rule.resourceNames, rule.nonResourceURLs, rule.verbs];
  return JSON.stringify(fields.map((values) => values ?? []));
}

/**
 * The parts of `servant` that no rule of `owner` grants; empty when `owner` covers it all. A servant rule that
 * `owner` holds verbatim is covered whole (each of its parts is covered by that rule), so only the others are
 * broken down: the bootstrap reconciliation at every start finds the defaults unchanged without the breakdown.
 */
export function uncoveredRules(owner: PolicyRule[], servant: PolicyRule[]): PolicyRule[] {
  const held = new Set(owner.map(ruleText));
  return servant.filter((rule) => !held.has(ruleText(rule))).flatMap(breakdownRule).filter((sub) =>
    !owner.some((rule) => ruleCovers(rule, sub))
  );
}

/** Go's `%q` of a string slice: `["a" "b"]`. */
function quotedList(values: string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(" ")}]`;
}

/** kube's rbacv1helpers.CompactString: `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`. */
export function compactRule(rule: PolicyRule): string {
  const fields: [string, string[] | undefined][] = [
    ["APIGroups", rule.apiGroups],
    ["Resources", rule.resources],
    ["NonResourceURLs", rule.nonResourceURLs],
    ["ResourceNames", rule.resourceNames],
    ["Verbs", rule.verbs],
  ];
  return `{${fields.filter(([, v]) => v && v.length > 0).map(([k, v]) => `${k}:${quotedList(v!)}`).join(", ")}}`;
}
