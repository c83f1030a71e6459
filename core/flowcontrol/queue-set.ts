/**
 * One priority level's admission (kube's fairqueuing/queueset): requests execute while their seats (kube's
 * WorkEstimate.MaxSeats) fit in the level's `limit`; a request wider than the whole limit runs alone. The
 * rest wait in queues picked by shuffle sharding (the least-loaded queue of the flow's hand), and a freed seat
 * goes to the next non-empty queue in round-robin order — kube's fair queuing when every request costs one
 * seat for the same estimated time. A request is rejected when its queue is full ("queue-full"), when the level
 * does not queue and has no seat free ("concurrency-limit"), when it waited past the limit ("time-out") or when
 * its client went away ("cancelled"), the reasons kube's rejected_requests_total counts.
 */
import { dealHand } from "./shuffle-sharding.ts";
import { maxSeats, type WorkEstimate } from "./work-estimate.ts";

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
  work: WorkEstimate;
}

/** A held seat; `release` frees it for the next waiting request. */
export interface Seat {
  release(): void;
}

interface Queue {
  waiting: Waiter[];
  executing: number;
  seatsInUse: number;
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
  #seatsInUse = 0;
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

  get seatsInUse(): number {
    return this.#seatsInUse;
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
    if (!queuing) return this.#canAccommodate(request.work) ? this.#seat(undefined, request.work) : "concurrency-limit";
    if (this.#waiting === 0 && this.#canAccommodate(request.work)) return this.#seat(undefined, request.work);
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

  /** Per queue: waiting requests, executing count and seats in use (kube's dump_queues). */
  queues(): { waiting: readonly WaitingRequest[]; executing: number; seatsInUse: number }[] {
    return this.#queues.map((queue) => ({ waiting: queue.waiting, executing: queue.executing, seatsInUse: queue.seatsInUse }));
  }

  /**
   * kube's canAccommodateSeatsLocked: the seats fit beside those in use; a request wider than the whole limit
   * waits until nothing executes and then runs alone.
   */
  #canAccommodate(work: WorkEstimate): boolean {
    const seats = this.#reservedSeats(work);
    if (seats > this.#limit) return this.#executing === 0;
    return this.#seatsInUse + seats <= this.#limit;
  }

  /** kube caps the final (watch event) seats at the concurrency limit when it dispatches. */
  #reservedSeats(work: WorkEstimate): number {
    return maxSeats({ ...work, finalSeats: Math.min(work.finalSeats, this.#limit) });
  }

  #shortestQueueOfHand(hash: bigint, queuing: QueuingConfig): Queue {
    let best: Queue | undefined;
    for (const index of dealHand(hash, queuing.queues, Math.min(queuing.handSize, queuing.queues))) {
      const queue = this.#queues[index];
      if (!best || queue.waiting.length + queue.executing < best.waiting.length + best.executing) best = queue;
    }
    return best!;
  }

  /**
   * Occupies the request's seats until release, and then for its additional latency (kube's finishRequestLocked
   * frees MaxSeats only once the watch events' time is over); a capped final width stretches that time so the
   * estimated work stays the same.
   */
  #seat(queue: Queue | undefined, work: WorkEstimate): Seat {
    const seats = this.#reservedSeats(work);
    const finalSeats = Math.min(work.finalSeats, this.#limit);
    const latencyMs = finalSeats > 0 ? (work.additionalLatencyMs * work.finalSeats) / finalSeats : 0;
    this.#executing++;
    this.#seatsInUse += seats;
    if (queue) {
      queue.executing++;
      queue.seatsInUse += seats;
    }
    const freeSeats = () => {
      this.#seatsInUse -= seats;
      if (queue) queue.seatsInUse -= seats;
      this.#dispatchAsMuchAsPossible();
    };
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#executing--;
        if (queue) queue.executing--;
        if (latencyMs > 0) setTimeout(freeSeats, latencyMs);
        else freeSeats();
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
    while (this.#waiting > 0) {
      const index = this.#nextQueueIndex();
      const queue = this.#queues[index];
      // kube dispatches the chosen queue's head or nothing: a wide request is not overtaken by narrower ones.
      if (!this.#canAccommodate(queue.waiting[0].work)) break;
      this.#robinIndex = index;
      const waiter = queue.waiting.shift()!;
      this.#waiting--;
      waiter.settle(this.#seat(queue, waiter.work));
    }
    this.#resizeQueues();
  }

  /** The next non-empty queue after the last one served (kube's robinIndex). */
  #nextQueueIndex(): number {
    for (let step = 1; step <= this.#queues.length; step++) {
      const index = (this.#robinIndex + step) % this.#queues.length;
      if (this.#queues[index].waiting.length > 0) return index;
    }
    throw new Error("no waiting request although the count says so");
  }

  /** As many queues as configured, plus trailing ones of an older configuration until they are idle. */
  #resizeQueues(): void {
    const wanted = this.#queuing?.queues ?? 0;
    while (this.#queues.length < wanted) this.#queues.push({ waiting: [], executing: 0, seatsInUse: 0 });
    while (this.#queues.length > wanted) {
      const last = this.#queues[this.#queues.length - 1];
      if (last.waiting.length > 0 || last.seatsInUse > 0) break;
      this.#queues.pop();
    }
  }
}
