import { expect, test } from "bun:test";
import { newConflict, newNotFound, OBJECT_MODIFIED } from "./errors.ts";
import { type Backoff, DEFAULT_BACKOFF, DEFAULT_RETRY, retryOnConflict } from "./retry.ts";
import { statusErrorOfAsync } from "./testing.ts";

const CONFIGMAPS = { group: "", resource: "configmaps" };
const QUICK: Backoff = { steps: 3, durationMs: 1, factor: 2, jitter: 0.1 };

/** A step failing with `errors` in turn, then answering how many attempts it took. */
function failing(errors: Error[]): { step: () => Promise<number>; attempts: () => number } {
  let attempts = 0;
  return {
    step: () => {
      const error = errors[attempts++];
      return error ? Promise.reject(error) : Promise.resolve(attempts);
    },
    attempts: () => attempts,
  };
}

test("the backoffs are client-go's retry.DefaultRetry and retry.DefaultBackoff", () => {
  expect(DEFAULT_RETRY).toEqual({ steps: 5, durationMs: 10, factor: 1, jitter: 0.1 });
  expect(DEFAULT_BACKOFF).toEqual({ steps: 4, durationMs: 10, factor: 5, jitter: 0.1 });
});

test("retryOnConflict runs the step again after a 409 Conflict and answers its result (retry.RetryOnConflict)", async () => {
  const conflict = newConflict(CONFIGMAPS, "a", OBJECT_MODIFIED);
  const { step, attempts } = failing([conflict, conflict]);
  expect(await retryOnConflict(QUICK, step)).toBe(3);
  expect(attempts()).toBe(3);
});

test("retryOnConflict gives up after backoff.steps attempts with the last Conflict (wait.ExponentialBackoff, retry.OnError)", async () => {
  const conflicts = Array.from({ length: 9 }, (_, i) => newConflict(CONFIGMAPS, "a", `attempt ${i + 1}`));
  const { step, attempts } = failing(conflicts);
  const error = await statusErrorOfAsync(retryOnConflict(DEFAULT_RETRY, step));
  expect(attempts()).toBe(5);
  expect([error.code, error.message]).toEqual([409, 'Operation cannot be fulfilled on configmaps "a": attempt 5']);
});

test("retryOnConflict answers any other error at once", async () => {
  const { step, attempts } = failing([newNotFound(CONFIGMAPS, "a")]);
  expect((await statusErrorOfAsync(retryOnConflict(QUICK, step))).code).toBe(404);
  expect(attempts()).toBe(1);
});
