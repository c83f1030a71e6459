/** Label selectors: kube's ValidateLabelSelector (metav1 validation) and the matching rule of labels.Selector. */
import type { FieldError } from "../../api/errors.ts";
import { isQualifiedName, isValidLabelValue, validateLabels } from "../../api/names.ts";
import { forbidden, invalid, list, record, required, stringMap, text } from "./_field.ts";

export function validateLabelSelector(selector: unknown, path: string): FieldError[] {
  if (selector === undefined || selector === null) return [];
  const sel = record(selector);
  const errors: FieldError[] = [];
  list(sel.matchExpressions).forEach((raw, i) => {
    const expr = record(raw);
    const at = `${path}.matchExpressions[${i}]`;
    const values = list(expr.values);
    switch (expr.operator) {
      case "In":
      case "NotIn":
        if (values.length === 0) errors.push(required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case "Exists":
      case "DoesNotExist":
        if (values.length > 0) errors.push(forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errors.push(invalid(`${at}.operator`, expr.operator ?? "", "not a valid selector operator"));
    }
    for (const m of isQualifiedName(text(expr.key))) errors.push(invalid(`${at}.key`, text(expr.key), m));
    values.forEach((v, j) => {
      for (const m of isValidLabelValue(String(v))) errors.push(invalid(`${at}.values[${j}]`, v, m));
    });
  });
  errors.push(...validateLabels(stringMap(sel.matchLabels), `${path}.matchLabels`));
  return errors;
}

/** True when the selector has neither matchLabels nor matchExpressions (it selects everything). */
export function selectorIsEmpty(selector: unknown): boolean {
  const sel = record(selector);
  return Object.keys(record(sel.matchLabels)).length === 0 && list(sel.matchExpressions).length === 0;
}

export function selectorMatches(selector: unknown, labels: Record<string, string>): boolean {
  const sel = record(selector);
  for (const [key, value] of Object.entries(stringMap(sel.matchLabels))) if (labels[key] !== value) return false;
  return list(sel.matchExpressions).every((raw) => {
    const expr = record(raw);
    const key = text(expr.key);
    const values = list(expr.values).map(String);
    const has = Object.hasOwn(labels, key);
    if (expr.operator === "In") return has && values.includes(labels[key]);
    if (expr.operator === "NotIn") return !has || !values.includes(labels[key]);
    if (expr.operator === "Exists") return has;
    if (expr.operator === "DoesNotExist") return !has;
    return false;
  });
}
