/**
 * kube's patch handler (endpoints/handlers/patch.go) turns the patched object into its Go types; a value that does
 * not fit is a 422 on the field "patch" whose value and detail depend on the patch type:
 * - strategic merge patch (applyPatchToObject): the patch map as Go's %+v prints it, and the unstructured
 *   converter's error;
 * - JSON and merge patch (jsonPatcher.applyPatchToCurrentObject): the patched object's JSON, and the JSON
 *   decoder's error. kube's JSON keeps the stored field order in parts the patch did not reach; here every
 *   level is written with sorted keys, as Go writes the maps json-patch rebuilds.
 */
import { newInvalid } from "../../api/errors.ts";
import { isPlainObject, type KubeObject } from "../../api/types.ts";
import type { ResourceType } from "../../api/resource-type.ts";
import { checkFields, PatchTypeError } from "../../schema/field-check.ts";
import { STRATEGIC_MERGE_PATCH } from "./patch-body.ts";

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

const GO_HTML_ESCAPES: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/** Go's json.Marshal of a map[string]interface{}: compact, sorted keys, HTML characters escaped. */
export function goMarshal(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (!isPlainObject(v)) return v;
    return Object.fromEntries(Object.keys(v).sort().map((key) => [key, sorted(v[key])]));
  };
  return JSON.stringify(sorted(value)).replace(/[<>&\u2028\u2029]/g, (c) => GO_HTML_ESCAPES[c]);
}

/** Throws kube's 422 when the patched object has a value its kind's Go types cannot hold. */
export function checkPatchedObject(type: ResourceType, patched: KubeObject, mediaType: string, patch: unknown): void {
  const strategic = mediaType === STRATEGIC_MERGE_PATCH;
  try {
    checkFields(type, structuredClone(patched), { patch: strategic ? "strategic" : "json" });
  } catch (e) {
    if (!(e instanceof PatchTypeError)) throw e;
    const value = strategic ? goPrintValue(patch) : goMarshal(patched);
    throw newInvalid({ group: "", kind: "" }, "", [{ type: "FieldValueInvalid", field: "patch", value, detail: e.message }]);
  }
}
