/** Test helper: field errors as kube's field.Error.Error() prints them in a 422 message ("<field>: <words>: <value>: <detail>"). */
import { type FieldError, newInvalid } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";

export function messages(errors: FieldError[]): string[] {
  if (errors.length === 0) return [];
  return (newInvalid({ group: "", kind: "X" }, "x", errors).details?.causes ?? []).map((c) => `${c.field}: ${c.message ?? ""}`);
}

/** A namespaced object of the given shape named "x". */
export function object(fields: Record<string, unknown>, name = "x"): KubeObject {
  return { metadata: { name, namespace: "ns" }, ...fields };
}
