/**
 * The worker that finishes scheduled snapshots (snapshot-off-thread.ts): WAL recovery and checkpoint into the copy,
 * the syncs and the hash read and write the whole database, which would hold the server's event loop for as long as
 * they take; here they run on a thread of its own, with its own SQLite connection to the copy. It says
 * `{ ready: true }` once loaded (the SQLite driver is imported with a top-level await, and a message that arrives
 * before the handler exists is lost), then answers one request with `{ status }` or `{ error }`.
 */
import { finishSnapshot, type SnapshotParts, type SnapshotStatus } from "./snapshot.ts";

export type SnapshotAnswer = { ready: true } | { status: SnapshotStatus } | { error: string };

declare const self: { onmessage: ((event: MessageEvent<SnapshotParts>) => void) | null; postMessage(answer: SnapshotAnswer): void };

self.onmessage = async ({ data }) => {
  try {
    self.postMessage({ status: await finishSnapshot(data) });
  } catch (error) {
    self.postMessage({ error: (error as Error).message });
  }
};
self.postMessage({ ready: true });
