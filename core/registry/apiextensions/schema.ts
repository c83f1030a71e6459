/** The part of apiextensions.k8s.io/v1 JSONSchemaProps that structural schemas use (no $ref, no definitions). */
export interface JSONSchemaProps {
  type?: "object" | "array" | "string" | "integer" | "number" | "boolean";
  format?: string;
  description?: string;
  properties?: Record<string, JSONSchemaProps>;
  required?: string[];
  items?: JSONSchemaProps;
  additionalProperties?: JSONSchemaProps | boolean;
  enum?: unknown[];
  default?: unknown;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  allOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  "x-kubernetes-preserve-unknown-fields"?: boolean;
  "x-kubernetes-int-or-string"?: boolean;
  "x-kubernetes-embedded-resource"?: boolean;
  "x-kubernetes-list-type"?: "atomic" | "set" | "map";
  "x-kubernetes-list-map-keys"?: string[];
  "x-kubernetes-map-type"?: "atomic" | "granular";
  /** CEL rules (core/cel); 1.26's ValidationRule has only rule and message. */
  "x-kubernetes-validations"?: { rule?: string; message?: string }[];
}

/** The schema of a map's values: `additionalProperties` when it is a schema. */
export function additionalSchema(schema: JSONSchemaProps): JSONSchemaProps | undefined {
  return typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined;
}

/** "spec" + "replicas" → "spec.replicas"; the root path is "". */
export function childPath(path: string, name: string): string {
  return path === "" ? name : `${path}.${name}`;
}
