/**
 * Which revision a list (spec 4.5) or get reads at, from resourceVersion, resourceVersionMatch,
 * limit and continue — with kube 1.26's answers for the invalid combinations.
 */
import { type ContinuePoint, decodeContinue } from "./continue-token.ts";
import { newBadRequest, newResourceExpired, newTooLargeResourceVersion, type StatusError } from "./errors.ts";
import { type ListOptions, parseResourceVersion } from "./list-options.ts";

/** latest: consistent current state; any: any version (this server has no stale cache, so also current); exact: that revision; notOlderThan: current, which is at least the revision. */
export type ReadMode = "latest" | "any" | "exact" | "notOlderThan";

export interface ListRead {
  mode: ReadMode;
  /** The revision to read at (the current one for latest/any/notOlderThan). */
  revision: number;
  /** Where a continued list resumes. */
  continueFrom?: ContinuePoint;
}

export const LIST_TOO_OLD_MESSAGE = "The resourceVersion for the provided list is too old.";

/** 410 for an exact list read below the compacted revision. */
export function newListTooOld(): StatusError {
  return newResourceExpired(LIST_TOO_OLD_MESSAGE);
}

/** retryAfterSeconds: 1 from the watch cache (waitUntilFreshAndBlock), 0 from the etcd3 store (validateMinimumResourceVersion). */
function atLeast(mode: "exact" | "notOlderThan", requested: number, currentRevision: number, retryAfterSeconds = 1): ListRead {
  if (requested > currentRevision) throw newTooLargeResourceVersion(requested, currentRevision, retryAfterSeconds);
  return { mode, revision: mode === "exact" ? requested : currentRevision };
}

/** The read a get asks for: unset → latest, "0" → any, N → not older than N (504 when N is in the future). */
export function resolveGetRead(resourceVersion: string, currentRevision: number): ListRead {
  if (resourceVersion === "") return { mode: "latest", revision: currentRevision };
  const requested = parseResourceVersion(resourceVersion);
  return requested === 0 ? { mode: "any", revision: currentRevision } : atLeast("notOlderThan", requested, currentRevision);
}

/**
 * Every row of the spec 4.5 list table. `options` must come from parseListOptions (which already
 * rejected the invalid resourceVersionMatch rows with 422). The caller still answers 410 when the
 * revision is compacted: newContinueExpired for a continued list, newListTooOld for an exact one.
 * `fromWatchCache` says kube's cacher would answer the list itself rather than hand it to the etcd3 store.
 */
export function resolveListRead(
  options: ListOptions,
  currentRevision: number,
  context: { keyPrefix: string; fromWatchCache: boolean },
): ListRead {
  const { resourceVersion, resourceVersionMatch, limit } = options;
  if (options.continue !== "") {
    // "0" with a token is tolerated and the token wins; any other version is a 400.
    if (resourceVersion !== "" && resourceVersion !== "0") {
      throw newBadRequest("specifying resource version is not allowed when using continue");
    }
    const continueFrom = decodeContinue(options.continue, context.keyPrefix);
    if (continueFrom.revision < 0) return { mode: "latest", revision: currentRevision, continueFrom };
    return { ...atLeast("exact", continueFrom.revision, currentRevision), continueFrom };
  }
  if (resourceVersion === "") return { mode: "latest", revision: currentRevision };
  const requested = parseResourceVersion(resourceVersion);
  if (requested === 0) return { mode: "any", revision: currentRevision };
  if (resourceVersionMatch === "Exact") return atLeast("exact", requested, currentRevision);
  const retryAfterSeconds = context.fromWatchCache ? 1 : 0;
  if (resourceVersionMatch === "NotOlderThan") return atLeast("notOlderThan", requested, currentRevision, retryAfterSeconds);
  // Legacy rows without resourceVersionMatch: a limited list is exact, an unlimited one not-older-than.
  if (limit > 0) return atLeast("exact", requested, currentRevision);
  return atLeast("notOlderThan", requested, currentRevision, retryAfterSeconds);
}
