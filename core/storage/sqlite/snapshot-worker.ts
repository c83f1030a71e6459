/**
 * The worker that writes scheduled snapshots out (snapshot-off-thread.ts): `VACUUM INTO` of the private copy, the
 * syncs and the hash read and write the whole database, which would hold the server's event loop for as long as they
 * take; here they run on a thread of its own, with its own SQLite connection to the copy. It says `{ ready: true }` once loaded (the SQLite driver is imported with a top-level await,
 * and a message that arrives before the handler exists is lost), then answers one request with `{ status }` or
 * `{ error }`.
 */
import { type SnapshotStatus, writeSnapshotFile } from "./snapshot.ts";

/** writeSnapshotFile's arguments. */
export interface SnapshotRequest {
  copy: string;
  file: string;
  dbPath: string;
}

export type SnapshotAnswer = { ready: true } | { status: SnapshotStatus } | { error: string };

declare const self: { onmessage: ((event: MessageEvent<SnapshotRequest>) => void) | null; postMessage(answer: SnapshotAnswer): void };

self.onmessage = async ({ data }) => {
  try {
    self.postMessage({ status: await writeSnapshotFile(data.copy, data.file, data.dbPath) });
  } catch (error) {
    self.postMessage({ error: (error as Error).message });
  }
};
self.postMessage({ ready: true });
