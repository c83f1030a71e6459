/**
 * The one etcd watch over the whole store (every key under --etcd-prefix, with prev_kv and progress
 * notifications), kept open for as long as the backend is: when the stream breaks (etcd lost, a member gone), it
 * is opened again from the revision after the last one received, on the next endpoint, after a short backoff, as
 * kube's etcd3 watcher resumes. If etcd compacted that revision meanwhile, the events between are lost to this
 * process: that is reported and the watch resumes at the compacted revision.
 */
import type { EtcdClient, WatchCall } from "./_client.ts";
import type { EtcdWatchResponse } from "./_messages.ts";

export interface StoreWatchHandlers {
  /** Each response with events or progress, in stream order. */
  onResponse(response: EtcdWatchResponse): void;
  /** etcd had compacted revisions [from, to] before they were sent. */
  onLost(from: number, to: number): void;
  /** The stream broke after working (not told again for each failed reopening); it is reopened. */
  onBroken(error: unknown): void;
}

const BACKOFF_MS = [100, 250, 500, 1000, 2000];

export class StoreWatch {
  readonly #client: EtcdClient;
  readonly #range: { key: Uint8Array; rangeEnd: Uint8Array };
  readonly #handlers: StoreWatchHandlers;
  /** Every event at or below this revision was received. */
  #received: number;
  #call: WatchCall | undefined;
  #failures = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(client: EtcdClient, range: { key: Uint8Array; rangeEnd: Uint8Array }, afterRevision: number, handlers: StoreWatchHandlers) {
    this.#client = client;
    this.#range = range;
    this.#received = afterRevision;
    this.#handlers = handlers;
    this.#open();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#call?.cancel();
  }

  #open(): void {
    const { call, failed } = this.#client.watch();
    this.#call = call;
    let broken = false;
    const reopen = (error: unknown) => {
      if (broken || this.#stopped) return;
      broken = true;
      call.cancel();
      failed();
      if (this.#failures === 0) this.#handlers.onBroken(error);
      const delay = BACKOFF_MS[Math.min(this.#failures++, BACKOFF_MS.length - 1)]!;
      this.#timer = setTimeout(() => this.#open(), delay);
    };
    call.on("data", (response: EtcdWatchResponse) => {
      if (broken) return;
      if (response.canceled) {
        if (response.compactRevision > 0) {
          this.#handlers.onLost(this.#received + 1, response.compactRevision - 1);
          this.#received = response.compactRevision - 1;
        }
        return reopen(new Error(`etcd cancelled the watch: ${response.cancelReason || "compacted"}`));
      }
      if (response.created) {
        this.#failures = 0;
        return;
      }
      // A progress notification (no events) comes only to a synced watcher: every event up to its revision was sent.
      const last = response.events.at(-1)?.kv.modRevision ?? response.header.revision;
      this.#received = Math.max(this.#received, last);
      this.#handlers.onResponse(response);
    });
    call.on("error", reopen);
    call.on("end", () => reopen(new Error("etcd closed the watch stream")));
    call.write({
      createRequest: { ...this.#range, startRevision: this.#received + 1, progressNotify: true, prevKv: true },
    });
  }
}
