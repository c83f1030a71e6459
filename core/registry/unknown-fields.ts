/**
 * The decoder's strict check of a written object (kube's UpdateResource and CreateResource decode the body,
 * PatchResource the patched object, before anything else).
 */
import type { KubeObject } from "../api/types.ts";
import type { ResourceType } from "../api/resource-type.ts";
import { checkFields, MAX_STRICT_ERRORS, newStrictDecodingError } from "../schema/field-check.ts";
import type { StoreExtension } from "./store-extension.ts";
import type { WriteOptions } from "./store-options.ts";

/**
 * Drops the fields the schema does not know (a custom resource's by its structural schema) and reports them by the
 * fieldValidation directive: a 400 under Strict, warnings under Warn (addStrictDecodingWarnings). Returns their
 * paths, for a caller that reports them its own way under Ignore.
 */
export function dropUnknownFields(
  type: ResourceType,
  extension: StoreExtension | undefined,
  obj: KubeObject,
  options: Pick<WriteOptions, "fieldValidation" | "warnings">,
): string[] {
  const unknownFields = extension ? extension.prune(obj) : checkFields(type, obj).unknownFields;
  const directive = options.fieldValidation ?? "Warn";
  if (unknownFields.length > 0 && directive === "Strict") {
    throw newStrictDecodingError(type, obj, unknownFields, []);
  }
  // kube's strict decoder collects at most MAX_STRICT_ERRORS problems, so a body cannot flood the warnings.
  if (directive === "Warn" && unknownFields.length > 0) {
    options.warnings?.push(...unknownFields.slice(0, MAX_STRICT_ERRORS).map((f) => `unknown field "${f}"`));
  }
  return unknownFields;
}
