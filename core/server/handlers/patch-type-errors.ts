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
import { goMarshal, goPrintValue } from "../../api/go-values.ts";
import type { KubeObject } from "../../api/types.ts";
import type { ResourceType } from "../../api/resource-type.ts";
import { checkFields, PatchTypeError } from "../../schema/field-check.ts";
import { STRATEGIC_MERGE_PATCH } from "./patch-body.ts";

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
