/**
 * kube's CEL types of a schema (DeclType of SchemaDeclType, 1.26) as cel-go's checker sees them: scalars, durations
 * and timestamps by format, lists, maps with string keys, int-or-string as dyn, and objects named as Compile names
 * them (NewRuleTypes and MaybeAssignTypeName): the rule's root `selfType<nanoseconds>`, a field `<parent>.<field>`,
 * list items `<parent>.@idx`, map values `<parent>.@elem`.
 */
import { escapePropertyName } from "./escape.ts";
import { isFieldObject, mapValueSchema, type RuleSchema, withTypeAndObjectMeta } from "./schema.ts";
import { hasDeclType } from "./values.ts";

export type CelType =
  | { kind: "dyn" | "bool" | "int" | "uint" | "double" | "string" | "bytes" | "null_type" | "timestamp" | "duration" | "type" }
  | { kind: "list"; elem: CelType }
  | { kind: "map"; value: CelType }
  | { kind: "object"; schema: RuleSchema; name: string };

export const DYN: CelType = { kind: "dyn" };

/** generateUniqueSelfTypeName: a name rule authors cannot depend on, new on each compilation. */
export function selfTypeName(): string {
  const now = performance.timeOrigin + performance.now();
  return `selfType${Math.floor((now % 1000) * 1_000_000)}`;
}

/** kube's CEL type of a schema node named `name`; `resourceRoot` for a resource root or an embedded resource. */
export function schemaCelType(schema: RuleSchema, resourceRoot: boolean, name: string): CelType {
  if (schema["x-kubernetes-int-or-string"]) return DYN;
  switch (schema.type) {
    case "integer":
      return { kind: "int" };
    case "number":
      return { kind: "double" };
    case "boolean":
      return { kind: "bool" };
    case "string": {
      const byFormat = { byte: "bytes", duration: "duration", date: "timestamp", "date-time": "timestamp" } as const;
      return { kind: byFormat[schema.format as keyof typeof byFormat] ?? "string" };
    }
    case "array": {
      const items = schema.items;
      return { kind: "list", elem: items ? schemaCelType(items, items["x-kubernetes-embedded-resource"] === true, `${name}.@idx`) : DYN };
    }
    case "object": {
      const values = mapValueSchema(schema);
      if (!isFieldObject(schema) && values) {
        return { kind: "map", value: schemaCelType(values, values["x-kubernetes-embedded-resource"] === true, `${name}.@elem`) };
      }
      return { kind: "object", schema: resourceRoot ? withTypeAndObjectMeta(schema) : schema, name };
    }
  }
  return DYN;
}

/** The type of an object's field, by its escaped name; undefined when the object does not declare it. */
export function fieldType(object: Extract<CelType, { kind: "object" }>, field: string): CelType | undefined {
  for (const [name, property] of Object.entries(object.schema.properties ?? {})) {
    if (escapePropertyName(name) === field && hasDeclType(property)) {
      return schemaCelType(property, property["x-kubernetes-embedded-resource"] === true, `${object.name}.${field}`);
    }
  }
  return undefined;
}

/** How cel-go's FormatCheckedType prints a type in its messages; undefined for type values, which kubun does not track. */
export function printType(type: CelType): string | undefined {
  switch (type.kind) {
    case "timestamp":
      return "google.protobuf.Timestamp";
    case "duration":
      return "google.protobuf.Duration";
    case "list": {
      const elem = printType(type.elem);
      return elem && `list(${elem})`;
    }
    case "map": {
      const value = printType(type.value);
      return value && `map(string, ${value})`;
    }
    case "object":
      return type.name;
    case "type":
      return undefined;
  }
  return type.kind;
}

/**
 * Whether cel-go's checker can unify two operand types of `==`: dyn and null go with anything, lists and maps by
 * their elements, objects with objects (kubun does not tell kube's object types apart), scalars only with themselves.
 */
export function unifiable(a: CelType, b: CelType): boolean {
  if (a.kind === "dyn" || b.kind === "dyn" || a.kind === "null_type" || b.kind === "null_type") return true;
  if (a.kind === "list" && b.kind === "list") return unifiable(a.elem, b.elem);
  if (a.kind === "map" && b.kind === "map") return unifiable(a.value, b.value);
  return a.kind === b.kind;
}
