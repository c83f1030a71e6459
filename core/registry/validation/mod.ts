/**
 * Per-kind value rules (kube's Validate<Kind> and Validate<Kind>Update): each returns field errors that become one
 * 422 Invalid with a cause per field.
 */
import type { FieldError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import type { ResourceType } from "../resource-type.ts";

/** `old` is the stored object on update, absent on create. */
export function validateKind(_type: ResourceType, _obj: KubeObject, _old?: KubeObject): FieldError[] {
  return [];
}
