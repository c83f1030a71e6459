/** Test helpers shared by unit tests: capture the StatusError a call throws. */
import { isStatusError, type StatusError } from "./errors.ts";

export function statusErrorOf(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (e) {
    if (isStatusError(e)) return e;
    throw e;
  }
  throw new Error("expected a StatusError, but nothing was thrown");
}

/** The StatusError `promise` rejects with; a value that is no promise (a call answered at once) fails as resolved. */
export async function statusErrorOfAsync(promise: unknown): Promise<StatusError> {
  try {
    await promise;
  } catch (e) {
    if (isStatusError(e)) return e;
    throw e;
  }
  throw new Error("expected a StatusError, but the promise resolved");
}
