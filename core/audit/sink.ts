/**
 * Audit backends and the buffering modes kube puts in front of them (k8s.io/apiserver plugin/pkg/audit/buffered
 * and the --audit-*-mode flags): `blocking` hands each event over before the request goes on, `blocking-strict`
 * also fails the request when the RequestReceived event cannot be stored, `batch` queues events and sends them in
 * batches from the background, dropping events when the buffer is full.
 */
import type { AuditEvent } from "./event.ts";

/** What the request chain hands events to; false means the event was not stored. */
export interface AuditSink {
  processEvent(event: AuditEvent): Promise<boolean>;
  /** Sends what is buffered; resolves when done. */
  shutdown(): Promise<void>;
}

export type AuditMode = "batch" | "blocking" | "blocking-strict";

export interface BatchConfig {
  bufferSize: number;
  maxBatchSize: number;
  maxBatchWaitMs: number;
  throttleEnable: boolean;
  throttleQPS: number;
  throttleBurst: number;
}

/** A backend delivers serialized events (each a JSON or legacy text), in order. */
export type Deliver<T> = (items: T[]) => Promise<void>;

/**
 * Wraps a delivery function in one of kube's modes. `serialize` runs when the event is handed over, because the
 * chain goes on changing the same event object for later stages.
 */
export function auditSink<T>(
  mode: AuditMode,
  batch: BatchConfig,
  serialize: (event: AuditEvent) => T,
  deliver: Deliver<T>,
  onError: (error: unknown) => void,
): AuditSink {
  if (mode !== "batch") {
    return {
      async processEvent(event) {
        try {
          await deliver([serialize(event)]);
          return true;
        } catch (error) {
          onError(error);
          // kube's blocking mode logs and goes on; only blocking-strict fails the request.
          return mode === "blocking";
        }
      },
      shutdown: () => Promise.resolve(),
    };
  }
  return new BufferedSink(batch, serialize, deliver, onError);
}

class BufferedSink<T> implements AuditSink {
  #queue: T[] = [];
  #waitTimer: ReturnType<typeof setTimeout> | undefined;
  #sending: Promise<void> = Promise.resolve();
  #tokens: number;
  #lastRefill = performance.now();

  constructor(
    private readonly config: BatchConfig,
    private readonly serialize: (event: AuditEvent) => T,
    private readonly deliver: Deliver<T>,
    private readonly onError: (error: unknown) => void,
  ) {
    this.#tokens = config.throttleBurst;
  }

  processEvent(event: AuditEvent): Promise<boolean> {
    if (this.#queue.length >= this.config.bufferSize) {
      this.onError(new Error("audit buffer queue blocked, event dropped"));
      return Promise.resolve(true);
    }
    this.#queue.push(this.serialize(event));
    if (this.#queue.length >= this.config.maxBatchSize) this.#send({ partial: false, throttle: true });
    this.#waitTimer ??= setTimeout(() => {
      this.#waitTimer = undefined;
      this.#send({ partial: true, throttle: true });
    }, this.config.maxBatchWaitMs);
    this.#waitTimer.unref?.();
    return Promise.resolve(true);
  }

  #send(how: { partial: boolean; throttle: boolean }): Promise<void> {
    this.#sending = this.#sending.then(() => this.#sendBatches(how));
    return this.#sending;
  }

  /** Sends full batches, and a last partial one when the wait is over or on shutdown; one batch at a time. */
  async #sendBatches(how: { partial: boolean; throttle: boolean }): Promise<void> {
    while (this.#queue.length >= (how.partial ? 1 : this.config.maxBatchSize)) {
      if (how.throttle) await this.#throttle();
      const batch = this.#queue.splice(0, this.config.maxBatchSize);
      try {
        await this.deliver(batch);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  /** kube's token bucket (flowcontrol.NewTokenBucketRateLimiter) on batches sent; shutdown does not wait for it. */
  async #throttle(): Promise<void> {
    if (!this.config.throttleEnable) return;
    for (;;) {
      const now = performance.now();
      this.#tokens = Math.min(this.config.throttleBurst, this.#tokens + ((now - this.#lastRefill) / 1000) * this.config.throttleQPS);
      this.#lastRefill = now;
      if (this.#tokens >= 1) {
        this.#tokens -= 1;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, ((1 - this.#tokens) / this.config.throttleQPS) * 1000));
    }
  }

  async shutdown(): Promise<void> {
    clearTimeout(this.#waitTimer);
    this.#waitTimer = undefined;
    await this.#send({ partial: true, throttle: false });
  }
}
