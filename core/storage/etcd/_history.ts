/**
 * Committed events after a revision, read from etcd's history with a watch of its own: etcd has no other way to
 * read past events. The watch covers the whole keyspace because every revision above 1 is some write's, so an
 * event at exactly the target revision always arrives and ends the read; events outside the wanted range are
 * dropped. A start below etcd's compacted revision fails with Compacted, as kube's watch does with 410.
 */
import { status } from "@grpc/grpc-js";
import { compactedError } from "../storage.ts";
import { type EtcdClient, storageErrorOf } from "./_client.ts";
import type { EtcdEvent, EtcdWatchResponse } from "./_messages.ts";

const ALL_KEYS = new Uint8Array([0]);

export interface HistoryRead {
  events: EtcdEvent[];
  /** Set when etcd had compacted the start revision away. */
  compactRevision?: number;
}

/** Events with afterRevision < revision <= throughRevision whose key is in [key, rangeEnd), oldest first. */
export function readHistory(
  client: EtcdClient,
  range: { key: Uint8Array; rangeEnd: Uint8Array },
  afterRevision: number,
  throughRevision: number,
  timeoutMs: number,
): Promise<HistoryRead> {
  if (throughRevision <= Math.max(afterRevision, 1)) return Promise.resolve({ events: [] });
  return new Promise((resolve, reject) => {
    const { call, failed } = client.watch();
    const events: EtcdEvent[] = [];
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      call.cancel();
      outcome();
    };
    const timer = setTimeout(
      () => finish(() => reject(new Error(`etcd did not replay revisions ${afterRevision + 1}..${throughRevision} in ${timeoutMs} ms`))),
      timeoutMs,
    );
    call.on("data", (response: EtcdWatchResponse) => {
      if (response.canceled) {
        return finish(() => (response.compactRevision > 0
          ? resolve({ events: [], compactRevision: response.compactRevision })
          : reject(compactedError()))
        );
      }
      for (const event of response.events) {
        if (event.kv.modRevision <= throughRevision && inRange(event.kv.key, range)) events.push(event);
      }
      // etcd sends a revision's events in one response, so the target's arrival ends the read.
      if ((response.events.at(-1)?.kv.modRevision ?? 0) >= throughRevision) finish(() => resolve({ events }));
    });
    call.on("error", (error: { code?: number }) => {
      // The next replay goes to another member.
      if (error.code === status.UNAVAILABLE) failed();
      finish(() => reject(storageErrorOf(error)));
    });
    call.on("end", () => finish(() => reject(new Error("etcd closed the watch stream"))));
    call.write({ createRequest: { key: ALL_KEYS, rangeEnd: ALL_KEYS, startRevision: afterRevision + 1, prevKv: true } });
  });
}

function inRange(key: Uint8Array, range: { key: Uint8Array; rangeEnd: Uint8Array }): boolean {
  return Buffer.compare(key, range.key) >= 0 && Buffer.compare(key, range.rangeEnd) < 0;
}
