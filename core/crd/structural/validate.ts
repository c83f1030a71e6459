/**
 * Validation of a custom resource against its structural schema, with kube-apiserver's field errors
 * (kube-openapi's validator messages, turned into field errors as apiextensions-apiserver's
 * kubeOpenAPIResultToFieldErrors does).
 */
import { deepEqual } from "../../api/equality.ts";
import type { FieldError } from "../../api/errors.ts";
import { isPlainObject } from "../../api/types.ts";
import { matchesFormat } from "./formats.ts";
import { additionalSchema, childPath, type JSONSchemaProps } from "../../registry/apiextensions/mod.ts";
import { listItemErrors } from "./list-uniqueness.ts";

/** kube-openapi's name of a JSON value's type. */
export function jsonTypeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  // Integers beyond 2^53 are read as BigInt to stay exact (api/exact-integers.ts).
  if (typeof value === "bigint") return "integer";
  return typeof value === "object" ? "object" : typeof value;
}

function typeMatches(schema: JSONSchemaProps, actual: string): boolean {
  if (schema["x-kubernetes-int-or-string"]) return actual === "integer" || actual === "string";
  if (schema.type === undefined) return true;
  return actual === schema.type || (schema.type === "number" && actual === "integer");
}

function invalid(field: string, value: unknown, detail: string): FieldError {
  return { type: "FieldValueInvalid", field, value, detail };
}

/** Every violation of `schema` by `value` at `path` (the path kube prints, "" for the root). */
export function validateValue(value: unknown, schema: JSONSchemaProps, path: string): FieldError[] {
  const name = path === "" ? "." : path;
  if (value === null && schema.nullable) return [];
  const actual = jsonTypeName(value);
  if (!typeMatches(schema, actual)) {
    const expected = schema["x-kubernetes-int-or-string"] ? "integer,string" : schema.type;
    return [{
      type: "FieldValueTypeInvalid",
      field: name,
      value: actual,
      detail: `${name} in body must be of type ${expected}: "${actual}"`,
    }];
  }
  const errors: FieldError[] = [];
  if (schema.enum && !schema.enum.some((allowed) => deepEqual(allowed, value))) {
    const supported = schema.enum.map((v) => JSON.stringify(typeof v === "string" ? v : JSON.stringify(v))).join(", ");
    errors.push({ type: "FieldValueNotSupported", field: name, value, detail: `supported values: ${supported}` });
  }
  if (typeof value === "number" || typeof value === "bigint") errors.push(...numberErrors(value, schema, name));
  else if (typeof value === "string") errors.push(...stringErrors(value, schema, name));
  else if (Array.isArray(value)) errors.push(...arrayErrors(value, schema, path));
  else if (isPlainObject(value)) errors.push(...objectErrors(value, schema, path));
  for (const sub of schema.allOf ?? []) errors.push(...validateValue(value, sub, path));
  if (schema.anyOf && !schema.anyOf.some((sub) => validateValue(value, sub, path).length === 0)) {
    errors.push(invalid(name, value, `${name} in body must validate at least one schema (anyOf)`));
  }
  if (schema.oneOf && schema.oneOf.filter((sub) => validateValue(value, sub, path).length === 0).length !== 1) {
    errors.push(invalid(name, value, `${name} in body must validate one and only one schema (oneOf)`));
  }
  if (schema.not && validateValue(value, schema.not, path).length === 0) {
    errors.push(invalid(name, value, `${name} in body must not validate the schema (not)`));
  }
  return errors;
}

function numberErrors(value: number | bigint, schema: JSONSchemaProps, name: string): FieldError[] {
  const errors: FieldError[] = [];
  if (schema.minimum !== undefined) {
    if (schema.exclusiveMinimum ? value <= schema.minimum : value < schema.minimum) {
      errors.push(
        invalid(name, value, `${name} in body should be greater than ${schema.exclusiveMinimum ? "" : "or equal to "}${schema.minimum}`),
      );
    }
  }
  if (schema.maximum !== undefined) {
    if (schema.exclusiveMaximum ? value >= schema.maximum : value > schema.maximum) {
      errors.push(
        invalid(name, value, `${name} in body should be less than ${schema.exclusiveMaximum ? "" : "or equal to "}${schema.maximum}`),
      );
    }
  }
  if (schema.multipleOf !== undefined && !Number.isInteger(Number(value) / schema.multipleOf)) {
    errors.push(invalid(name, value, `${name} in body should be a multiple of ${schema.multipleOf}`));
  }
  return errors;
}

function stringErrors(value: string, schema: JSONSchemaProps, name: string): FieldError[] {
  const errors: FieldError[] = [];
  const length = [...value].length;
  if (schema.maxLength !== undefined && length > schema.maxLength) {
    errors.push({ type: "FieldValueTooLong", field: name, value, detail: `may not be longer than ${schema.maxLength}` });
  }
  if (schema.minLength !== undefined && length < schema.minLength) {
    errors.push(invalid(name, value, `${name} in body should be at least ${schema.minLength} chars long`));
  }
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test(value)) {
    errors.push(invalid(name, value, `${name} in body should match '${schema.pattern}'`));
  }
  if (schema.format && !schema["x-kubernetes-int-or-string"] && !matchesFormat(schema.format, value)) {
    errors.push({
      type: "FieldValueTypeInvalid",
      field: name,
      value,
      detail: `${name} in body must be of type ${schema.format}: ${JSON.stringify(value)}`,
    });
  }
  return errors;
}

function arrayErrors(value: unknown[], schema: JSONSchemaProps, path: string): FieldError[] {
  const name = path === "" ? "." : path;
  const errors: FieldError[] = [];
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    errors.push({ type: "FieldValueTooMany", field: name, value: value.length, detail: `must have at most ${schema.maxItems} items` });
  }
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    errors.push(invalid(name, value.length, `${name} in body should have at least ${schema.minItems} items`));
  }
  if (schema.uniqueItems && new Set(value.map((item) => JSON.stringify(item))).size !== value.length) {
    errors.push(invalid(name, value, `${name} in body shouldn't contain duplicates`));
  }
  if (schema.items) value.forEach((item, i) => errors.push(...validateValue(item, schema.items!, `${path}[${i}]`)));
  errors.push(...listItemErrors(value, schema, path));
  return errors;
}

function objectErrors(value: Record<string, unknown>, schema: JSONSchemaProps, path: string): FieldError[] {
  const name = path === "" ? "." : path;
  const errors: FieldError[] = [];
  const count = Object.keys(value).length;
  if (schema.maxProperties !== undefined && count > schema.maxProperties) {
    errors.push({ type: "FieldValueTooMany", field: name, value: count, detail: `must have at most ${schema.maxProperties} items` });
  }
  if (schema.minProperties !== undefined && count < schema.minProperties) {
    errors.push(invalid(name, count, `${name} in body should have at least ${schema.minProperties} properties`));
  }
  const required = [...(schema.required ?? []), ...(schema["x-kubernetes-embedded-resource"] ? ["apiVersion", "kind"] : [])];
  for (const field of required) {
    if (!Object.hasOwn(value, field)) errors.push({ type: "FieldValueRequired", field: childPath(path, field), detail: "" });
  }
  const additional = additionalSchema(schema);
  for (const [key, child] of Object.entries(value)) {
    const childSchema = schema.properties?.[key] ?? additional;
    if (childSchema) errors.push(...validateValue(child, childSchema, childPath(path, key)));
  }
  return errors;
}
