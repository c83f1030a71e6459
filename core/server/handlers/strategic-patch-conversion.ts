/**
 * kube's applyPatchToObject (endpoints/handlers/patch.go): after a strategic merge patch, the patched map is
 * converted into the typed object; a value that does not fit is a 422 on the field "patch", whose value is the
 * patch map as Go's %+v prints it and whose detail is the unstructured converter's error.
 */
import { newInvalid } from "../../api/errors.ts";
import { isPlainObject, type KubeObject } from "../../api/types.ts";
import type { ResourceType } from "../../registry/resource-type.ts";
import { checkFields, UnstructuredConversionError } from "../../schema/field-check.ts";

/** Go's %v of a float64: strconv's shortest 'g', in exponent form below 1e-4 or from 1e6 on (exponent at least 2 digits). */
function goFloat(value: number): string {
  const exponent = Math.floor(Math.log10(Math.abs(value)));
  if (exponent >= -4 && exponent < 6) return String(value);
  const [mantissa, power] = value.toExponential().split("e");
  const sign = power.startsWith("-") ? "-" : "+";
  return `${mantissa}e${sign}${power.replace(/^[+-]/, "").padStart(2, "0")}`;
}

/** Go's %+v of a value decoded from JSON into interface{}: maps with sorted keys, slices space-separated, bare strings. */
export function goPrintValue(value: unknown): string {
  if (value === null || value === undefined) return "<nil>";
  if (typeof value === "string") return value;
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : goFloat(value);
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(goPrintValue).join(" ")}]`;
  if (isPlainObject(value)) {
    const entries = Object.keys(value).sort().map((key) => `${key}:${goPrintValue(value[key])}`);
    return `map[${entries.join(" ")}]`;
  }
  return String(value);
}

/** Throws kube's 422 when the patched object has a value its kind's Go types cannot hold. */
export function checkStrategicPatchResult(type: ResourceType, patched: KubeObject, patch: unknown): void {
  try {
    checkFields(type, structuredClone(patched), { converter: "unstructured" });
  } catch (e) {
    if (!(e instanceof UnstructuredConversionError)) throw e;
    throw newInvalid({ group: "", kind: "" }, "", [{ type: "FieldValueInvalid", field: "patch", value: goPrintValue(patch), detail: e.message }]);
  }
}
