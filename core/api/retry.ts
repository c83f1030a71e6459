/**
 * client-go's util/retry: run a step again after a backoff while it fails with a retriable error (OnError),
 * a Conflict for RetryOnConflict. For writers that read, change and write back a client-style object (its
 * resourceVersion a precondition), as kube's registries and controllers do outside the store's own retry.
 */
import { isConflict } from "./errors.ts";

/** apimachinery's wait.Backoff: `steps` attempts, sleeping `durationMs` (times up to 1 + jitter) between them, growing by `factor`. */
export interface Backoff {
  steps: number;
  durationMs: number;
  factor: number;
  jitter: number;
}

/** retry.DefaultRetry: several clients changing one resource. */
export const DEFAULT_RETRY: Backoff = { steps: 5, durationMs: 10, factor: 1, jitter: 0.1 };
/** retry.DefaultBackoff: an unrelated change to a resource one or more controllers manage. */
export const DEFAULT_BACKOFF: Backoff = { steps: 4, durationMs: 10, factor: 5, jitter: 0.1 };

/**
 * retry.OnError over wait.ExponentialBackoff: `step`'s value on success; a non-retriable error at once; the
 * last retriable error once the steps are used up.
 */
export async function retryOnError<T>(backoff: Backoff, retriable: (error: unknown) => boolean, step: () => Promise<T>): Promise<T> {
  let delay = backoff.durationMs;
  for (let left = backoff.steps;; left--) {
    try {
      return await step();
    } catch (error) {
      if (!retriable(error) || left <= 1) throw error;
    }
    // wait.Jitter: the delay plus up to jitter times itself.
    const jittered = delay + (backoff.jitter > 0 ? Math.random() * backoff.jitter * delay : 0);
    await new Promise((resolve) => setTimeout(resolve, jittered));
    // wait.Backoff.Step: a zero factor leaves the delay as it is.
    if (backoff.factor !== 0) delay *= backoff.factor;
  }
}

/** retry.RetryOnConflict: `step` reads afresh, changes and writes; it runs again while the write answers 409 Conflict. */
export function retryOnConflict<T>(backoff: Backoff, step: () => Promise<T>): Promise<T> {
  return retryOnError(backoff, isConflict, step);
}
