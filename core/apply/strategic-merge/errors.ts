/**
 * Errors of strategic merge patch, with the HTTP status kube-apiserver answers them with
 * (interpretStrategicMergePatchError: malformed directives 400, lists of lists 422, anything else 500).
 */

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

export function noMergeKey(item: unknown, mergeKey: string): StrategicMergeError {
  return internalMergeError(`map: ${JSON.stringify(item)} does not contain declared merge key: ${mergeKey}`);
}

export function badArgType(expected: string, actual: unknown): StrategicMergeError {
  return internalMergeError(`expected a ${expected}, but received a ${Array.isArray(actual) ? "list" : typeof actual}`);
}
