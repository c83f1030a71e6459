/**
 * A server's own snapshots (scheduled ones): the live files are copied on this thread (live-copy.ts: through a
 * descriptor kept open and with synchronous reads in chunks, since this process's connection holds the file's
 * locks), and the rest — WAL recovery and checkpoint into the copy, the syncs and the hash, which read and write the
 * whole database — runs on a worker thread (snapshot-worker.ts), so a scheduled snapshot never stalls the requests
 * the server is answering. The compiled binary carries the worker as a second entry point (compile.sh); from source
 * it is loaded beside this file.
 */
import { startWorker } from "../../runtime/worker.ts";
import { saveSnapshot, type SnapshotParts, type SnapshotStatus } from "./snapshot.ts";
import type { SnapshotAnswer } from "./snapshot-worker.ts";

const WORKER_URL = new URL("./snapshot-worker.ts", import.meta.url);
/** The worker's entry point in compile.sh. */
const WORKER_ENTRY = "core/storage/sqlite/snapshot-worker.ts";

export function saveSnapshotOffThread(dbPath: string, file: string): Promise<SnapshotStatus> {
  return saveSnapshot(dbPath, file, { writerProcess: true, finish: finishOffThread });
}

function finishOffThread(parts: SnapshotParts): Promise<SnapshotStatus> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(WORKER_URL, WORKER_ENTRY);
    const finish = (outcome: () => void) => {
      worker.terminate();
      outcome();
    };
    worker.onmessage = ({ data }: MessageEvent<SnapshotAnswer>) => {
      if ("ready" in data) worker.postMessage(parts);
      else finish(() => ("status" in data ? resolve(data.status) : reject(new Error(data.error))));
    };
    worker.onerror = (event) => finish(() => reject(new Error(event.message)));
  });
}
