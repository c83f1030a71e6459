/**
 * Errors of strategic merge patch, with the HTTP status kube-apiserver answers them with
 * (interpretStrategicMergePatchError: malformed directives 400, lists of lists 422, anything else 500), worded as
 * apimachinery's mergepatch errors print Go values.
 */
import { goPrintValue, goSprintS, goTypeName } from "../../api/go-values.ts";

export class StrategicMergeError extends Error {
  readonly status: 400 | 422 | 500;

  constructor(status: 400 | 422 | 500, message: string) {
    super(message);
    this.name = "StrategicMergeError";
    this.status = status;
  }
}

export const badPatchFormatForPrimitiveList = () => new StrategicMergeError(400, "invalid patch format of primitive list");
export const badPatchFormatForRetainKeys = () => new StrategicMergeError(400, "invalid patch format of retainKeys");
export const badPatchFormatForSetElementOrderList = () => new StrategicMergeError(400, "invalid patch format of setElementOrder list");
export const noListOfLists = () => new StrategicMergeError(422, "lists of lists are not supported");

/** Everything kube reports as a plain error, which its handler answers with 500. */
export function internalMergeError(message: string): StrategicMergeError {
  return new StrategicMergeError(500, message);
}

/** mergepatch.ErrNoMergeKey: the map as %v prints it. */
export function noMergeKey(item: unknown, mergeKey: string): StrategicMergeError {
  return internalMergeError(`map: ${goPrintValue(item)} does not contain declared merge key: ${mergeKey}`);
}

/** The Go types kube's type assertions expect, as reflect prints them. */
export const GO_MAP = "map[string]interface {}";
export const GO_SLICE = "[]interface {}";

/** mergepatch.ErrBadArgType: the expected and the actual value's reflect types. */
export function badArgType(expected: typeof GO_MAP | typeof GO_SLICE, actual: unknown): StrategicMergeError {
  return internalMergeError(`expected a ${expected}, but received a ${goTypeName(actual)}`);
}

/** mergepatch.ErrBadPatchType: the directive as %s and the map holding it as %v prints them. */
export function badPatchType(directive: unknown, map: unknown): StrategicMergeError {
  return internalMergeError(`unknown patch type: ${goSprintS(directive)} in map: ${goPrintValue(map)}`);
}
