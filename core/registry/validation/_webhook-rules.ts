/** Admission webhook rules (kube's validateRuleWithOperations / validateRule / validateResources). */
import type { FieldError } from "../../api/errors.ts";
import { goStringSlice } from "../../api/go-text.ts";
import { invalid, isSet, list, notSupported, record, required, text } from "./_field.ts";

const OPERATIONS = ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];
const SCOPES = ["*", "Cluster", "Namespaced"];

function wildcardMixed(values: string[], path: string, what: string): FieldError[] {
  return values.length > 1 && values.includes("*")
    ? [invalid(path, values, `if '*' is present, must not specify other ${what}`, goStringSlice(values))]
    : [];
}

function validateResources(resources: string[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (resources.length === 0) errors.push(required(path));
  const withWildcardSub = new Set<string>();
  const subsWithWildcardResource = new Set<string>();
  let hasResourceWithoutSub = false;
  resources.forEach((entry, i) => {
    if (entry === "") return errors.push(required(`${path}[${i}]`));
    const slash = entry.indexOf("/");
    if (slash < 0) {
      hasResourceWithoutSub = entry !== "*";
      return;
    }
    const res = entry.slice(0, slash);
    const sub = entry.slice(slash + 1);
    if (withWildcardSub.has(res)) errors.push(invalid(`${path}[${i}]`, entry, `if '${res}/*' is present, must not specify ${entry}`));
    if (subsWithWildcardResource.has(sub)) {
      errors.push(invalid(`${path}[${i}]`, entry, `if '*/${sub}' is present, must not specify ${entry}`));
    }
    if (sub === "*") withWildcardSub.add(res);
    if (res === "*") subsWithWildcardResource.add(sub);
  });
  if (resources.length > 1 && resources.includes("*/*")) {
    errors.push(invalid(path, resources, "if '*/*' is present, must not specify other resources", goStringSlice(resources)));
  }
  if (resources.includes("*") && hasResourceWithoutSub) {
    errors.push(
      invalid(path, resources, "if '*' is present, must not specify other resources without subresources", goStringSlice(resources)),
    );
  }
  return errors;
}

export function validateRuleWithOperations(ruleValue: unknown, path: string): FieldError[] {
  const rule = record(ruleValue);
  const operations = list(rule.operations).map(String);
  const groups = list(rule.apiGroups).map(String);
  const versions = list(rule.apiVersions).map(String);
  const errors: FieldError[] = [];
  if (operations.length === 0) errors.push(required(`${path}.operations`));
  errors.push(...wildcardMixed(operations, `${path}.operations`, "operations"));
  operations.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) errors.push(notSupported(`${path}.operations[${i}]`, op, OPERATIONS));
  });
  if (groups.length === 0) errors.push(required(`${path}.apiGroups`));
  errors.push(...wildcardMixed(groups, `${path}.apiGroups`, "API groups"));
  if (versions.length === 0) errors.push(required(`${path}.apiVersions`));
  errors.push(...wildcardMixed(versions, `${path}.apiVersions`, "API versions"));
  versions.forEach((v, i) => {
    if (v === "") errors.push(required(`${path}.apiVersions[${i}]`));
  });
  errors.push(...validateResources(list(rule.resources).map(String), `${path}.resources`));
  if (isSet(rule.scope) && !SCOPES.includes(text(rule.scope))) errors.push(notSupported(`${path}.scope`, rule.scope, SCOPES));
  return errors;
}
