/**
 * fieldValidation of a patch (endpoints/handlers/patch.go): the strict errors of decoding the patch itself
 * (duplicate fields; a JSON patch's operations' unknown fields, as "json patch …") come first, then the patched
 * object's unknown fields. Warn makes each a warning (addStrictDecodingWarnings); Strict refuses them all in one
 * 422 on "patch" (jsonPatcher.applyPatchToCurrentObject: the patched JSON; applyPatchToObject: the patch map's %+v).
 */
import { newInvalid } from "../../api/errors.ts";
import { goPrintValue } from "../../api/go-values.ts";
import { MAX_STRICT_ERRORS } from "../../schema/field-check.ts";
import { type PatchBody, STRATEGIC_MERGE_PATCH } from "./patch-decode.ts";
import type { FieldValidation } from "./write-options.ts";

/**
 * Reports the patch's and the patched object's strict errors by the fieldValidation directive; `patchedJson` gives
 * the patched object's JSON with its unknown fields, asked for only when Strict refuses.
 */
export function reportPatchStrictErrors(
  body: PatchBody,
  patchedJson: () => string,
  unknownFields: string[],
  validation: FieldValidation,
  warnings: string[],
): void {
  if (validation === "Ignore") return;
  const errors = [...body.strictErrors, ...unknownFields.map((path) => `unknown field "${path}"`)].slice(0, MAX_STRICT_ERRORS);
  if (errors.length === 0) return;
  if (validation === "Warn") {
    warnings.push(...errors);
    return;
  }
  const value = body.mediaType === STRATEGIC_MERGE_PATCH ? goPrintValue(body.value) : patchedJson();
  throw newInvalid({ group: "", kind: "" }, "", [
    { type: "FieldValueInvalid", field: "patch", value, detail: `strict decoding error: ${errors.join(", ")}` },
  ]);
}
