/**
 * Interplay with client-side apply (kube's lastAppliedManager / lastAppliedUpdater): for the manager "kubectl",
 * conflicts on fields whose live value still equals the last-applied annotation are forced (the upgrade from
 * client-side apply), and the annotation is kept in step with what was applied.
 */
import { parseJSONExact } from "../../api/exact-integers.ts";
import { isPlainObject, type KubeObject } from "../../api/types.ts";
import { compareValues } from "./compare.ts";
import { difference, type FieldSet } from "./field-set.ts";
import { goJSON } from "./path-element.ts";
import type { TypeNode } from "./schema-type.ts";
import { toFieldSet } from "./to-field-set.ts";
import { withoutManagedFields } from "./scope.ts";

export const LAST_APPLIED_ANNOTATION = "kubectl.kubernetes.io/last-applied-configuration";
/** kubectl's default server-side field manager, the only one these rules apply to. */
export const KUBECTL_MANAGER = "kubectl";

function lastAppliedOf(obj: KubeObject | null): string | undefined {
  const value = obj?.metadata?.annotations?.[LAST_APPLIED_ANNOTATION];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The fields client-side apply last set that still hold that value; undefined without a readable annotation. */
export function fieldsStillAsLastApplied(live: KubeObject, type: TypeNode): FieldSet | undefined {
  const text = lastAppliedOf(live);
  if (text === undefined) return undefined;
  try {
    const lastApplied = parseJSONExact(text);
    if (!isPlainObject(lastApplied)) return undefined;
    const changed = compareValues(withoutManagedFields(live), lastApplied, type).modified;
    return difference(toFieldSet(lastApplied, type), changed);
  } catch {
    return undefined;
  }
}

/** Rewrites an existing last-applied annotation to the applied configuration (Go's JSON encoding, newline-terminated). */
export function syncLastApplied(result: KubeObject, config: KubeObject): void {
  if (lastAppliedOf(result) === undefined) return;
  const applied = structuredClone(config);
  const annotations = applied.metadata?.annotations;
  if (annotations) {
    delete annotations[LAST_APPLIED_ANNOTATION];
    if (Object.keys(annotations).length === 0) delete applied.metadata.annotations;
  }
  result.metadata.annotations = { ...result.metadata.annotations, [LAST_APPLIED_ANNOTATION]: `${goJSON(applied)}\n` };
}
