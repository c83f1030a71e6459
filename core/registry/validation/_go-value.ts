/** Go's `%#v` rendering of the few structured values kube puts into field errors (maps, label selectors, role refs). */
import { goQuote, goStringSlice } from "../../api/go-text.ts";
import { list, record, text } from "./_field.ts";
import { compareByteOrder } from "../../api/byte-order.ts";

export function goStringMap(value: unknown): string {
  if (value === undefined || value === null) return "map[string]string(nil)";
  const entries = Object.entries(record(value)).sort(([a], [b]) => compareByteOrder(a, b));
  return `map[string]string{${entries.map(([k, v]) => `${goQuote(k)}:${goQuote(String(v))}`).join(", ")}}`;
}

function goRequirement(raw: unknown): string {
  const r = record(raw);
  return `v1.LabelSelectorRequirement{Key:${goQuote(text(r.key))}, Operator:${goQuote(text(r.operator))}, Values:${
    goStringSlice(list(r.values).map(String))
  }}`;
}

/** A *metav1.LabelSelector as field errors print it (dereferenced, so the struct form). */
export function goLabelSelector(value: unknown): string {
  if (value === undefined || value === null) return "null";
  const sel = record(value);
  const expressions = list(sel.matchExpressions);
  const exprText = expressions.length === 0
    ? "[]v1.LabelSelectorRequirement(nil)"
    : `[]v1.LabelSelectorRequirement{${expressions.map(goRequirement).join(", ")}}`;
  return `v1.LabelSelector{MatchLabels:${goStringMap(sel.matchLabels)}, MatchExpressions:${exprText}}`;
}

export function goRoleRef(value: unknown): string {
  const ref = record(value);
  return `rbac.RoleRef{APIGroup:${goQuote(text(ref.apiGroup))}, Kind:${goQuote(text(ref.kind))}, Name:${goQuote(text(ref.name))}}`;
}
