/**
 * A rate-limited work queue (client-go's workqueue): a key waits at most once however often it is added, a key
 * being processed is not handed to a second worker (re-adds run it again afterwards), and a failed key is retried
 * after an exponential backoff (5ms doubling up to a cap) until it succeeds.
 */
import { logger } from "../../log/mod.ts";

const log = logger("work-queue");

export interface WorkQueueOptions {
  /** Workers processing keys in parallel; default 1. */
  workers?: number;
  /** First retry delay in ms; default 5 (client-go's). */
  baseDelayMs?: number;
  /** Longest retry delay in ms; default 30 s. */
  maxDelayMs?: number;
  /** Receives a failed key's error; default logs it. */
  onError?: (key: string, error: unknown) => void;
}

export type Reconcile = (key: string) => Promise<void>;

export class WorkQueue {
  readonly #reconcile: Reconcile;
  readonly #queue: string[] = [];
  readonly #waiting = new Set<string>();
  readonly #processing = new Set<string>();
  readonly #dirty = new Set<string>();
  readonly #failures = new Map<string, number>();
  readonly #timers = new Map<string, { timer: ReturnType<typeof setTimeout>; at: number }>();
  readonly #options: Required<WorkQueueOptions>;
  #active = 0;
  #stopped = false;
  #idle: (() => void)[] = [];

  constructor(reconcile: Reconcile, options: WorkQueueOptions = {}) {
    this.#reconcile = reconcile;
    this.#options = {
      workers: options.workers ?? 1,
      baseDelayMs: options.baseDelayMs ?? 5,
      maxDelayMs: options.maxDelayMs ?? 30_000,
      onError: options.onError ??
        ((key, error) => log.error(`reconciling ${key} failed`, error)),
    };
  }

  /** Queues `key` unless it already waits; a key being processed runs once more after it finishes. */
  add(key: string): void {
    if (this.#stopped) return;
    if (this.#processing.has(key)) {
      this.#dirty.add(key);
      return;
    }
    if (this.#waiting.has(key)) return;
    this.#waiting.add(key);
    this.#queue.push(key);
    this.#pump();
  }

  /** Queues `key` after `delayMs`; of several pending delays for a key the one ending first wins (client-go's). */
  addAfter(key: string, delayMs: number): void {
    const at = Date.now() + delayMs;
    const pending = this.#timers.get(key);
    if (this.#stopped || (pending && pending.at <= at)) return;
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => {
      this.#timers.delete(key);
      this.add(key);
    }, delayMs);
    this.#timers.set(key, { timer, at });
  }

  /** Keys waiting or being processed, timers excluded. */
  get length(): number {
    return this.#waiting.size + this.#processing.size;
  }

  /** Resolves once nothing waits or runs (delayed keys excepted); tests use it. */
  drained(): Promise<void> {
    if (this.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Drops waiting keys and timers; running reconciles finish but are not retried. */
  stop(): void {
    this.#stopped = true;
    for (const { timer } of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    this.#queue.length = 0;
    this.#waiting.clear();
    this.#dirty.clear();
    this.#settle();
  }

  #pump(): void {
    while (!this.#stopped && this.#active < this.#options.workers && this.#queue.length > 0) {
      const key = this.#queue.shift()!;
      this.#waiting.delete(key);
      this.#processing.add(key);
      this.#active++;
      void this.#process(key);
    }
  }

  async #process(key: string): Promise<void> {
    try {
      await this.#reconcile(key);
      this.#failures.delete(key);
    } catch (error) {
      if (!this.#stopped) {
        this.#options.onError(key, error);
        const failures = (this.#failures.get(key) ?? 0) + 1;
        this.#failures.set(key, failures);
        this.addAfter(key, Math.min(this.#options.baseDelayMs * 2 ** (failures - 1), this.#options.maxDelayMs));
      }
    }
    this.#processing.delete(key);
    this.#active--;
    if (this.#dirty.delete(key)) this.add(key);
    this.#pump();
    this.#settle();
  }

  #settle(): void {
    if (this.length > 0 && !this.#stopped) return;
    const waiters = this.#idle;
    this.#idle = [];
    for (const resolve of waiters) resolve();
  }
}
