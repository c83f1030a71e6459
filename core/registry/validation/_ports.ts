/** Port numbers and names: IsValidPortNum, IsValidPortName and ValidatePortNumOrName of kube's validation packages. */
import type { FieldError } from "../../api/errors.ts";
import { maxLenError } from "../../api/names.ts";
import { invalidEach } from "./_field.ts";

export const PORT_RANGE_ERROR = "must be between 1 and 65535, inclusive";

export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [PORT_RANGE_ERROR];
}

export function isValidPortName(name: string): string[] {
  const errors: string[] = [];
  if (name.length > 15) errors.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(name)) errors.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (!/[a-z]/.test(name)) errors.push("must contain at least one letter (a-z)");
  if (name.includes("--")) errors.push("must not contain consecutive hyphens");
  if (name.startsWith("-") || name.endsWith("-")) errors.push("must not begin or end with a hyphen");
  return errors;
}

/** An int-or-string port: a number in range or an IANA-style port name. */
export function validatePortNumOrName(port: unknown, field: string): FieldError[] {
  if (typeof port === "number") return invalidEach(field, port, isValidPortNum(port));
  if (typeof port === "string") return invalidEach(field, port, isValidPortName(port));
  return [];
}
