/**
 * One priority level's admission (kube's fairqueuing/queueset): up to `limit` requests execute at once; the
 * rest wait in queues picked by shuffle sharding (the least-loaded queue of the flow's hand), and a freed seat
 * goes to the next non-empty queue in round-robin order — kube's fair queuing when every request costs one
 * seat for the same estimated time. A request is rejected when its queue is full ("queue-full"), when the level
 * does not queue and has no seat free ("concurrency-limit"), when it waited past the limit ("time-out") or when
 * its client went away ("cancelled"), the reasons kube's rejected_requests_total counts.
 */
import { dealHand } from "./shuffle-sharding.ts";

export type RejectReason = "queue-full" | "concurrency-limit" | "time-out" | "cancelled";

export interface QueuingConfig {
  queues: number;
  handSize: number;
  queueLengthLimit: number;
}

/** What the debug dump shows of a waiting request (kube's dump_requests columns). */
export interface WaitingRequest {
  flowSchema: string;
  distinguisher: string;
  arrivedAt: Date;
}

/** A held seat; `release` frees it for the next waiting request. */
export interface Seat {
  release(): void;
}

interface Queue {
  waiting: Waiter[];
  executing: number;
}

interface Waiter extends WaitingRequest {
  queue: Queue;
  settle(outcome: Seat | RejectReason): void;
}

export class QueueSet {
  #limit: number;
  #queuing: QueuingConfig | undefined;
  #queues: Queue[] = [];
  #executing = 0;
  #waiting = 0;
  #robinIndex = -1;

  constructor(limit: number, queuing?: QueuingConfig) {
    this.#limit = limit;
    this.#queuing = queuing;
    this.#resizeQueues();
  }

  get executing(): number {
    return this.#executing;
  }

  get waiting(): number {
    return this.#waiting;
  }

  get limit(): number {
    return this.#limit;
  }

  /** A new limit or queuing takes effect for later requests; requests already waiting stay in their queues. */
  reconfigure(limit: number, queuing?: QueuingConfig): void {
    this.#limit = limit;
    this.#queuing = queuing;
    this.#resizeQueues();
    this.#dispatchAsMuchAsPossible();
  }

  /** A seat at once, a rejection at once, or (when the request queues) a promise of either. */
  admit(
    request: WaitingRequest,
    flowHash: () => bigint,
    options: { waitLimitMs: number; signal?: () => AbortSignal },
  ): Seat | RejectReason | Promise<Seat | RejectReason> {
    const queuing = this.#queuing;
    if (!queuing) return this.#executing < this.#limit ? this.#seat(undefined) : "concurrency-limit";
    if (this.#waiting === 0 && this.#executing < this.#limit) return this.#seat(undefined);
    const queue = this.#shortestQueueOfHand(flowHash(), queuing);
    if (queue.waiting.length >= queuing.queueLengthLimit) return "queue-full";
    const signal = options.signal?.();
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined = undefined;
      const onAbort = () => this.#remove(waiter, "cancelled");
      const waiter: Waiter = {
        ...request,
        queue,
        settle: (outcome) => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          resolve(outcome);
        },
      };
      queue.waiting.push(waiter);
      this.#waiting++;
      timer = setTimeout(() => this.#remove(waiter, "time-out"), options.waitLimitMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#dispatchAsMuchAsPossible();
    });
  }

  /** Per queue: waiting requests and executing count (kube's dump_queues). */
  queues(): { waiting: readonly WaitingRequest[]; executing: number }[] {
    return this.#queues.map((queue) => ({ waiting: queue.waiting, executing: queue.executing }));
  }

  #shortestQueueOfHand(hash: bigint, queuing: QueuingConfig): Queue {
    let best: Queue | undefined;
    for (const index of dealHand(hash, queuing.queues, Math.min(queuing.handSize, queuing.queues))) {
      const queue = this.#queues[index];
      if (!best || queue.waiting.length + queue.executing < best.waiting.length + best.executing) best = queue;
    }
    return best!;
  }

  #seat(queue: Queue | undefined): Seat {
    this.#executing++;
    if (queue) queue.executing++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#executing--;
        if (queue) queue.executing--;
        this.#dispatchAsMuchAsPossible();
      },
    };
  }

  #remove(waiter: Waiter, reason: RejectReason): void {
    const index = waiter.queue.waiting.indexOf(waiter);
    if (index < 0) return;
    waiter.queue.waiting.splice(index, 1);
    this.#waiting--;
    waiter.settle(reason);
  }

  #dispatchAsMuchAsPossible(): void {
    while (this.#waiting > 0 && this.#executing < this.#limit) {
      const queue = this.#nextQueue();
      const waiter = queue.waiting.shift()!;
      this.#waiting--;
      waiter.settle(this.#seat(queue));
    }
    this.#resizeQueues();
  }

  /** The next non-empty queue after the last one served (kube's robinIndex). */
  #nextQueue(): Queue {
    for (let step = 1; step <= this.#queues.length; step++) {
      const index = (this.#robinIndex + step) % this.#queues.length;
      if (this.#queues[index].waiting.length > 0) {
        this.#robinIndex = index;
        return this.#queues[index];
      }
    }
    throw new Error("no waiting request although the count says so");
  }

  /** As many queues as configured, plus trailing ones of an older configuration until they are idle. */
  #resizeQueues(): void {
    const wanted = this.#queuing?.queues ?? 0;
    while (this.#queues.length < wanted) this.#queues.push({ waiting: [], executing: 0 });
    while (this.#queues.length > wanted) {
      const last = this.#queues[this.#queues.length - 1];
      if (last.waiting.length > 0 || last.executing > 0) break;
      this.#queues.pop();
    }
  }
}
