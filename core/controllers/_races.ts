/** Errors a controller's write meets when the world moved on meanwhile; the next event reconciles again. */
import { isAlreadyExists, isNotFound, isStatusError } from "../api/errors.ts";

/** Missing, already made, or refused because its namespace is terminating (403 from the lifecycle check). */
export function isBenignRace(e: unknown): boolean {
  return isAlreadyExists(e) || isNotFound(e) || (isStatusError(e) && e.code === 403);
}

/** Awaits a controller's write, letting a benign race pass and any other failure through. */
export async function tolerateBenignRace(write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (e) {
    if (!isBenignRace(e)) throw e;
  }
}
