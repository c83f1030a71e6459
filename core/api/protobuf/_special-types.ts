/**
 * Messages whose JSON form is not an object of their fields, keyed by the message name's suffix:
 * IntOrString, Quantity, embedded raw JSON, apiextensions' JSONSchemaPropsOr* unions, and the time types.
 */
import { newMalformedProtobuf } from "./codec-errors.ts";
import { bytesToJson, int64ToNumber, jsonToBytes } from "./_scalars.ts";
import { MICRO_TIME, TIME } from "./_special-time.ts";
import type { SpecialType } from "./_special-type.ts";

const INT_OR_STRING: SpecialType = {
  toJson: (message) => (int64ToNumber(message.type ?? 0) === 1 ? (message.strVal ?? "") : (message.intVal ?? 0)),
  fromJson(value) {
    if (typeof value === "number") return { type: 0, intVal: value };
    if (typeof value === "string") return { type: 1, strVal: value };
    if (value === null) return undefined;
    throw newMalformedProtobuf(`invalid int-or-string ${JSON.stringify(value)}`);
  },
};

const QUANTITY: SpecialType = {
  toJson: (message) => (message.string as string | undefined) || "0",
  fromJson(value) {
    if (typeof value === "string" || typeof value === "number") return { string: String(value) };
    if (value === null) return undefined;
    throw newMalformedProtobuf(`invalid quantity ${JSON.stringify(value)}`);
  },
};

/** Raw JSON carried in a bytes field (`raw` in RawExtension and apiextensions JSON, `Raw` in FieldsV1). */
function rawJson(field: string): SpecialType {
  return {
    toJson: (message) => bytesToJson(message[field] as Uint8Array | undefined),
    fromJson: (value) => (value === undefined || value === null ? undefined : { [field]: jsonToBytes(value) }),
  };
}

function schemaNameOf(unionName: string): string {
  return unionName.replace(/Or\w+$/, "");
}

// Each union marshals as its schema when set, otherwise as its alternative (apiextensions v1 marshal.go).
const SCHEMA_OR_ARRAY: SpecialType = {
  toJson(message, nested, name) {
    const schemas = (message.jSONSchemas ?? []) as Record<string, unknown>[];
    if (schemas.length > 0) return schemas.map((schema) => nested.toJson(schemaNameOf(name), schema));
    return message.schema ? nested.toJson(schemaNameOf(name), message.schema as Record<string, unknown>) : null;
  },
  fromJson(value, nested, name) {
    if (Array.isArray(value)) return { jSONSchemas: value.map((schema) => nested.fromJson(schemaNameOf(name), schema) ?? {}) };
    return value === null ? undefined : { schema: nested.fromJson(schemaNameOf(name), value) };
  },
};

const SCHEMA_OR_BOOL: SpecialType = {
  toJson(message, nested, name) {
    if (message.schema) return nested.toJson(schemaNameOf(name), message.schema as Record<string, unknown>);
    return message.allows === true;
  },
  fromJson(value, nested, name) {
    if (typeof value === "boolean") return { allows: value };
    return value === null ? undefined : { allows: true, schema: nested.fromJson(schemaNameOf(name), value) };
  },
};

const SCHEMA_OR_STRING_ARRAY: SpecialType = {
  toJson(message, nested, name) {
    const property = (message.property ?? []) as string[];
    if (property.length > 0) return property;
    return message.schema ? nested.toJson(schemaNameOf(name), message.schema as Record<string, unknown>) : null;
  },
  fromJson(value, nested, name) {
    if (Array.isArray(value)) return { property: value };
    return value === null ? undefined : { schema: nested.fromJson(schemaNameOf(name), value) };
  },
};

const BY_SUFFIX: [suffix: string, special: SpecialType][] = [
  [".apis.meta.v1.Time", TIME],
  [".apis.meta.v1.MicroTime", MICRO_TIME],
  [".apis.meta.v1.FieldsV1", rawJson("Raw")],
  [".util.intstr.IntOrString", INT_OR_STRING],
  [".api.resource.Quantity", QUANTITY],
  [".runtime.RawExtension", rawJson("raw")],
  [".JSONSchemaPropsOrArray", SCHEMA_OR_ARRAY],
  [".JSONSchemaPropsOrBool", SCHEMA_OR_BOOL],
  [".JSONSchemaPropsOrStringArray", SCHEMA_OR_STRING_ARRAY],
  [".apiextensions.v1.JSON", rawJson("raw")],
  [".apiextensions.v1beta1.JSON", rawJson("raw")],
];

/** The special JSON form of a message, if it has one. */
export function specialTypeOf(messageName: string): SpecialType | undefined {
  return BY_SUFFIX.find(([suffix]) => messageName.endsWith(suffix))?.[1];
}
