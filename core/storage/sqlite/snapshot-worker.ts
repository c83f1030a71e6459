/**
 * The worker that takes scheduled snapshots: `VACUUM INTO` reads and writes the whole database, which would hold
 * the server's event loop for as long as the copy takes; here it runs on a thread of its own, with its own
 * SQLite connection. It says `{ ready: true }` once loaded (the SQLite driver is imported with a top-level await,
 * and a message that arrives before the handler exists is lost), then answers one request with `{ status }` or
 * `{ error }`.
 */
import { saveSnapshot, type SnapshotStatus } from "./snapshot.ts";

export interface SnapshotRequest {
  dbPath: string;
  file: string;
}

export type SnapshotAnswer = { ready: true } | { status: SnapshotStatus } | { error: string };

declare const self: { onmessage: ((event: MessageEvent<SnapshotRequest>) => void) | null; postMessage(answer: SnapshotAnswer): void };

self.onmessage = async ({ data }) => {
  try {
    self.postMessage({ status: await saveSnapshot(data.dbPath, data.file) });
  } catch (error) {
    self.postMessage({ error: (error as Error).message });
  }
};
self.postMessage({ ready: true });
