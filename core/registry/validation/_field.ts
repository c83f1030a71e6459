/**
 * Field-error constructors and value readers shared by the per-kind rules, mirroring
 * k8s.io/apimachinery/pkg/util/validation/field (Required, Invalid, NotSupported, ...).
 */
import type { FieldError } from "../../api/errors.ts";
import { goQuote } from "../../api/go-text.ts";
import { deepEqual } from "../../api/equality.ts";

/** kube's Semantic.DeepEqual (core/api/equality.ts), beside the other helpers the per-kind rules share. */
export { deepEqual };

export type Obj = Record<string, unknown>;

export function required(field: string, detail = ""): FieldError {
  return { type: "FieldValueRequired", field, detail };
}

export function invalid(field: string, value: unknown, detail: string, valueText?: string): FieldError {
  return valueText === undefined
    ? { type: "FieldValueInvalid", field, value, detail }
    : { type: "FieldValueInvalid", field, value, detail, valueText };
}

/** kube lists the supported values quoted and comma-separated. */
export function notSupported(field: string, value: unknown, supported: readonly string[], valueText?: string): FieldError {
  const error: FieldError = {
    type: "FieldValueNotSupported",
    field,
    value,
    detail: `supported values: ${supported.map(goQuote).join(", ")}`,
  };
  return valueText === undefined ? error : { ...error, valueText };
}

export function forbidden(field: string, detail: string): FieldError {
  return { type: "FieldValueForbidden", field, detail };
}

export function duplicate(field: string, value: unknown, valueText?: string): FieldError {
  return valueText === undefined
    ? { type: "FieldValueDuplicate", field, value, detail: "" }
    : { type: "FieldValueDuplicate", field, value, detail: "", valueText };
}

export function tooLong(field: string, maxBytes: number): FieldError {
  return { type: "FieldValueTooLong", field, value: "", detail: `must have at most ${maxBytes} bytes` };
}

/** ValidateImmutableField: the new value is reported when it differs from the old one. */
export function immutable(next: unknown, old: unknown, field: string, valueText?: string): FieldError[] {
  return deepEqual(next, old) ? [] : [invalid(field, next ?? null, "field is immutable", valueText)];
}

/** ValidateNonnegativeField for optional numbers. */
export function nonNegative(value: unknown, field: string): FieldError[] {
  return typeof value === "number" && value < 0 ? [invalid(field, value, "must be greater than or equal to 0")] : [];
}

/** Turns each message of a util/validation check into an Invalid error at `field`. */
export function invalidEach(field: string, value: unknown, messages: string[]): FieldError[] {
  return messages.map((m) => invalid(field, value, m));
}

export function record(value: unknown): Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value as Obj : {};
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

export function stringMap(value: unknown): Record<string, string> {
  return record(value) as Record<string, string>;
}

export function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}
