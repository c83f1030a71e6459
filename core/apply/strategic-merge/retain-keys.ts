/** The `$retainKeys` directive: fields of the original missing from the list are cleared (kube's applyRetainKeysDirective). */
import { badPatchFormatForRetainKeys } from "./errors.ts";

const RETAIN_KEYS = "$retainKeys";

/** Removes the directive from `patch` and applies it to `original`; every field the patch sets must be listed. */
export function applyRetainKeys(original: Record<string, unknown>, patch: Record<string, unknown>): void {
  if (!Object.hasOwn(patch, RETAIN_KEYS)) return;
  const retained = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(retained)) throw badPatchFormatForRetainKeys();
  const keep = new Set<unknown>(retained);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || key.startsWith("$deleteFromPrimitiveList") || key.startsWith("$setElementOrder")) continue;
    if (!keep.has(key)) throw badPatchFormatForRetainKeys();
  }
  for (const key of Object.keys(original)) {
    if (!keep.has(key)) delete original[key];
  }
}
