/** Test kit: a LogSync whose syncs finish only when the test says so, optionally after a real sync. */
import type { LogSync } from "./durability-gate.ts";

export class HeldSync implements LogSync {
  /** Async syncs begun, and on-thread syncs made. */
  started = 0;
  syncedNow = 0;
  readonly #running: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  readonly #inner: LogSync | undefined;

  /** `inner`, when given, is synced for real when a held sync is let go, and by syncNow. */
  constructor(inner?: LogSync) {
    this.#inner = inner;
  }

  sync(): Promise<void> {
    this.started += 1;
    return new Promise((resolve, reject) => this.#running.push({ resolve, reject }));
  }

  syncNow(): void {
    this.syncedNow += 1;
    this.#inner?.syncNow();
  }

  /** Lets the oldest running sync finish (after the real one, when there is one). */
  async finish(): Promise<void> {
    const running = this.#running.shift();
    if (!running) throw new Error("no sync is running");
    try {
      await this.#inner?.sync();
      running.resolve();
    } catch (error) {
      running.reject(error);
    }
  }

  fail(error: Error): void {
    this.#running.shift()!.reject(error);
  }

  get running(): number {
    return this.#running.length;
  }

  close(): void {
    this.#inner?.close();
  }
}
