/** Errors a controller's write meets when the world moved on meanwhile; the next event reconciles again. */
import { isAlreadyExists, isNotFound, isStatusError } from "../api/errors.ts";

/**
 * Missing, already made, or refused because its namespace is terminating (the lifecycle check's 403 with cause
 * NamespaceTerminating). Other 403s (authorization, admission) are real refusals and are not swallowed.
 */
export function isBenignRace(e: unknown): boolean {
  return isAlreadyExists(e) || isNotFound(e) || isNamespaceTerminating(e);
}

/** kube's apierrors.HasStatusCause(err, v1.NamespaceTerminatingCause). */
export function isNamespaceTerminating(e: unknown): boolean {
  return isStatusError(e) && (e.details?.causes ?? []).some((cause) => cause.reason === "NamespaceTerminating");
}

/** Awaits a controller's write, letting a benign race pass and any other failure through. */
export async function tolerateBenignRace(write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (e) {
    if (!isBenignRace(e)) throw e;
  }
}
