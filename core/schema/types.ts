/**
 * The project's compact schema form: OpenAPI v3 facts without prose. A reference to another
 * definition is `ref` (the bare definition name, e.g. "io.k8s.api.core.v1.PodSpec"), whatever
 * shape upstream wrapped it in; the documents served to clients re-wrap it.
 */

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export type ListType = "atomic" | "set" | "map";
export type MapType = "atomic" | "granular";

export interface UnionFields {
  discriminator?: string;
  "fields-to-discriminateBy"?: Record<string, string>;
}

export interface Schema {
  type?: "object" | "array" | "string" | "integer" | "number" | "boolean";
  format?: string;
  /** Name of the definition this schema stands for; siblings (default, extensions) still apply. */
  ref?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  /** Alternatives for scalar types that accept more than one JSON type (IntOrString, Quantity). */
  oneOf?: Schema[];
  enum?: unknown[];
  default?: unknown;
  "x-kubernetes-int-or-string"?: boolean;
  "x-kubernetes-preserve-unknown-fields"?: boolean;
  "x-kubernetes-embedded-resource"?: boolean;
  "x-kubernetes-list-type"?: ListType;
  "x-kubernetes-list-map-keys"?: string[];
  "x-kubernetes-map-type"?: MapType;
  "x-kubernetes-patch-merge-key"?: string;
  /** Comma-separated: "merge", "retainKeys" or "merge,retainKeys". */
  "x-kubernetes-patch-strategy"?: string;
  "x-kubernetes-group-version-kind"?: GroupVersionKind[];
  "x-kubernetes-unions"?: UnionFields[];
}

/** Definition name → schema. */
export type Definitions = Readonly<Record<string, Schema>>;
