/** The part of a structural schema that CRD validation rules read (core/crd's JSONSchemaProps satisfies it). */
export interface ValidationRule {
  rule?: string;
  message?: string;
}

export interface RuleSchema {
  type?: string;
  format?: string;
  properties?: Record<string, RuleSchema>;
  items?: RuleSchema;
  additionalProperties?: RuleSchema | boolean;
  maxLength?: number;
  maxItems?: number;
  maxProperties?: number;
  required?: string[];
  default?: unknown;
  "x-kubernetes-int-or-string"?: boolean;
  "x-kubernetes-embedded-resource"?: boolean;
  "x-kubernetes-list-type"?: string;
  "x-kubernetes-list-map-keys"?: string[];
  "x-kubernetes-map-type"?: string;
  "x-kubernetes-validations"?: ValidationRule[];
}

/** The schema of a map's values, when `additionalProperties` is one. */
export function mapValueSchema(schema: RuleSchema): RuleSchema | undefined {
  return typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined;
}

/** An object of named fields: kube's DeclType object (a map when only additionalProperties is declared). */
export function isFieldObject(schema: RuleSchema): boolean {
  return schema.type === "object" && mapValueSchema(schema) === undefined;
}

/**
 * The schema of a resource root or an embedded resource as rules see it (model.WithTypeAndObjectMeta): apiVersion,
 * kind and of metadata only name and generateName.
 */
export function withTypeAndObjectMeta(schema: RuleSchema): RuleSchema {
  return {
    ...schema,
    properties: {
      ...schema.properties,
      apiVersion: { type: "string" },
      kind: { type: "string" },
      metadata: { type: "object", properties: { name: { type: "string" }, generateName: { type: "string" } } },
    },
  };
}
