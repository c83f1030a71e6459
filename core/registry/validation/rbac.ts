/** rbac.authorization.k8s.io/v1 roles and bindings (kube's ValidatePolicyRule, ValidateRoleBinding, roleRef immutability). */
import type { FieldError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { isDNS1123Subdomain, isValidPathSegmentName } from "../../api/names.ts";
import { goStringSlice } from "../../api/go-text.ts";
import { deepEqual, invalid, invalidEach, list, notSupported, record, required, text } from "./_field.ts";
import { goRoleRef } from "./_go-value.ts";

const RBAC_GROUP = "rbac.authorization.k8s.io";

function validateRules(obj: KubeObject, namespaced: boolean): FieldError[] {
  const errors: FieldError[] = [];
  list(obj.rules).forEach((raw, i) => {
    const rule = record(raw);
    const at = `rules[${i}]`;
    const urls = list(rule.nonResourceURLs).map(String);
    const groups = list(rule.apiGroups);
    const resources = list(rule.resources);
    if (list(rule.verbs).length === 0) errors.push(required(`${at}.verbs`, "verbs must contain at least one value"));
    if (urls.length > 0) {
      if (namespaced) {
        errors.push(invalid(`${at}.nonResourceURLs`, urls, "namespaced rules cannot apply to non-resource URLs", goStringSlice(urls)));
      }
      if (groups.length > 0 || resources.length > 0) {
        errors.push(
          invalid(`${at}.nonResourceURLs`, urls, "rules cannot apply to both regular resources and non-resource URLs", goStringSlice(urls)),
        );
      }
      return;
    }
    if (groups.length === 0) errors.push(required(`${at}.apiGroups`, "resource rules must supply at least one api group"));
    if (resources.length === 0) errors.push(required(`${at}.resources`, "resource rules must supply at least one resource"));
  });
  return errors;
}

export const validateRole = (obj: KubeObject): FieldError[] => validateRules(obj, true);
export const validateClusterRole = (obj: KubeObject): FieldError[] => validateRules(obj, false);

function validateSubject(subjectValue: unknown, path: string, namespaced: boolean): FieldError[] {
  const subject = record(subjectValue);
  const name = text(subject.name);
  const group = text(subject.apiGroup);
  const errors = name ? [] : [required(`${path}.name`)];
  switch (subject.kind) {
    case "ServiceAccount":
      if (name) errors.push(...invalidEach(`${path}.name`, name, isDNS1123Subdomain(name)));
      if (group) errors.push(notSupported(`${path}.apiGroup`, group, [""]));
      if (!namespaced && !text(subject.namespace)) errors.push(required(`${path}.namespace`));
      break;
    case "User":
    case "Group":
      // v1 defaulting fills the group for users and groups, so an empty one is the default.
      if (group && group !== RBAC_GROUP) errors.push(notSupported(`${path}.apiGroup`, group, [RBAC_GROUP]));
      break;
    default:
      errors.push(notSupported(`${path}.kind`, subject.kind ?? "", ["ServiceAccount", "User", "Group"]));
  }
  return errors;
}

function validateBinding(obj: KubeObject, namespaced: boolean): FieldError[] {
  const ref = record(obj.roleRef);
  const errors: FieldError[] = [];
  const group = text(ref.apiGroup);
  if (group && group !== RBAC_GROUP) errors.push(notSupported("roleRef.apiGroup", group, [RBAC_GROUP]));
  const kinds = namespaced ? ["Role", "ClusterRole"] : ["ClusterRole"];
  if (!kinds.includes(text(ref.kind))) errors.push(notSupported("roleRef.kind", text(ref.kind), kinds));
  const name = text(ref.name);
  if (!name) errors.push(required("roleRef.name"));
  else errors.push(...invalidEach("roleRef.name", name, isValidPathSegmentName(name)));
  list(obj.subjects).forEach((s, i) => errors.push(...validateSubject(s, `subjects[${i}]`, namespaced)));
  return errors;
}

export const validateRoleBinding = (obj: KubeObject): FieldError[] => validateBinding(obj, true);
export const validateClusterRoleBinding = (obj: KubeObject): FieldError[] => validateBinding(obj, false);

/** A binding's roleRef never changes; rebinding means a new binding. */
export function roleRefUnchanged(obj: KubeObject, old: KubeObject): FieldError[] {
  return deepEqual(obj.roleRef, old.roleRef) ? [] : [invalid("roleRef", obj.roleRef, "cannot change roleRef", goRoleRef(obj.roleRef))];
}
