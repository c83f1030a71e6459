/** "Not older than" reads: wait briefly for a revision the store has not reached yet (kube waits ~3s, then 504). */
import { newTooLargeResourceVersion } from "../api/errors.ts";
import type { Storage } from "../storage/storage.ts";

export const FRESHNESS_WAIT_MS = 3000;

/** Undefined when the storage has reached `revision` already: nothing to wait for. */
export function waitForRevision(storage: Storage, revision: number, timeoutMs = FRESHNESS_WAIT_MS): Promise<void> | undefined {
  if (storage.currentRevision() >= revision) return undefined;
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(newTooLargeResourceVersion(revision, storage.currentRevision()));
    }, timeoutMs);
    const unsubscribe = storage.subscribe((event) => {
      if (event.revision < revision) return;
      clearTimeout(timer);
      unsubscribe();
      resolve();
    });
  });
}
