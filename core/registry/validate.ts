/** The checks every object gets before it is stored: metadata rules with the kind's name rule, then the kind's own rules. */
import { newInvalid } from "../api/errors.ts";
import { type NameValidator, validateKubeFinalizerNames, validateObjectMeta } from "../api/names.ts";
import type { KubeObject } from "../api/types.ts";
import type { KindDefinition } from "./definition.ts";

export interface ValidationContext {
  /** The stored object, on update. */
  old?: KubeObject;
  /** The subresource an update writes through ("" for the main resource). */
  subresource?: string;
}

/**
 * Groups whose validation calls kube's core ValidateObjectMeta (pkg/apis/core/validation; apps and batch import
 * it as apivalidation), which adds validateKubeFinalizerName; custom resources and other groups get only
 * apimachinery's ValidateObjectMeta.
 */
const CORE_OBJECT_META_GROUPS = new Set(["", "apps", "batch"]);

/** An update names the stored object (the URL's name, which the body must match); a kind may leave its format to create. */
const formatUnchecked: NameValidator = () => [];

/** Metadata rules plus the kind's rules (with `old` on update); any error makes one 422 Invalid. */
export function validateNewObject(definition: KindDefinition, obj: KubeObject, context: ValidationContext = {}): void {
  const { type } = definition;
  const nameValidator = context.old && definition.nameRuleOnCreateOnly ? formatUnchecked : definition.nameRule;
  const errors = [
    ...validateObjectMeta(obj.metadata, { namespaced: type.namespaced, nameValidator }),
    ...(CORE_OBJECT_META_GROUPS.has(type.group) ? validateKubeFinalizerNames(obj.metadata.finalizers, "metadata.finalizers") : []),
    ...definition.validate(obj, context.old, context.subresource ?? ""),
  ];
  if (errors.length > 0) {
    throw newInvalid({ group: type.group, kind: type.kind }, String(obj.metadata.name ?? obj.metadata.generateName ?? ""), errors);
  }
}
