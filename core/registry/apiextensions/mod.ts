/**
 * The CustomResourceDefinition kind as the registry stores it (apiextensions-apiserver's
 * pkg/registry/customresourcedefinition): its types, validation, conditions and deletion; serving the custom
 * resources a CRD defines is core/crd's.
 */
export { withCondition } from "./conditions.ts";
export {
  CLEANUP_FINALIZER,
  conditionOf,
  CRD_GROUP,
  CRD_RESOURCE,
  type CRDCondition,
  type CRDNames,
  type CRDVersion,
  type CustomResourceDefinition,
  type PrinterColumn,
  type ScaleSubresource,
  storageVersionOf,
  type WebhookConversion,
} from "./crd.ts";
export { CRD_DELETION_HOOKS } from "./deletion-hooks.ts";
export { evaluateJSONPath, parseJSONPath } from "./jsonpath.ts";
export { additionalSchema, childPath, type JSONSchemaProps } from "./schema.ts";
export { validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate } from "./validation.ts";
