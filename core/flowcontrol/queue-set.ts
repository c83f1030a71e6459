/**
 * One priority level's admission (kube's fairqueuing/queueset): requests execute while their seats (kube's
 * WorkEstimate.MaxSeats) fit in the level's `limit`; a request wider than the whole limit runs alone. The
 * rest wait in queues picked by shuffle sharding (the queue of the flow's hand with the fewest seats waiting), and freed seats go
 * to the queue whose head would finish first in virtual time (kube's fair queuing: virtual time R advances at
 * min(seats wanted, limit) ÷ active queues per second; a dispatched request adds its work — seats × an estimated
 * 3 ms plus final seats × additional latency — to its queue's next dispatch R, corrected by the time it really
 * took; ties go round-robin). A request that finds nothing waiting and seats free runs without entering a queue,
 * so it is not charged to one. A request is rejected when its queue is full ("queue-full"), when the level
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
  /** The waiting requests' seats (kube's QueueSum MaxSeatsSum). */
  waitingSeats: number;
  /** kube's queue.nextDispatchR: the virtual time at which its head may start. */
  nextDispatchR: number;
}

interface Waiter extends WaitingRequest {
  queue: Queue;
  /** Virtual time at arrival: the queue's next dispatch never precedes it (kube's boundNextDispatchLocked). */
  arrivalR: number;
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
  /** Virtual time (in SeatSeconds units per queue) and the real time (ms) it was last advanced at. */
  #currentR = 0;
  #lastRealMs: number;
  readonly #clock: () => number;

  /** `clock` gives real time in milliseconds (replaceable in tests). */
  constructor(limit: number, queuing?: QueuingConfig, clock: () => number = performance.now.bind(performance)) {
    this.#limit = limit;
    this.#queuing = queuing;
    this.#clock = clock;
    this.#lastRealMs = clock();
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
    this.#syncTime();
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
    this.#syncTime();
    const queuing = this.#queuing;
    if (!queuing) return this.#canAccommodate(request.work) ? this.#seat(undefined, request.work) : "concurrency-limit";
    if (this.#waiting === 0 && this.#canAccommodate(request.work)) return this.#seat(undefined, request.work);
    const queue = this.#shortestQueueOfHand(flowHash(), queuing);
    // kube's rejectOrEnqueueToBoundLocked: a full queue refuses only while every seat is taken.
    if (this.#seatsInUse >= this.#limit && queue.waiting.length >= queuing.queueLengthLimit) return "queue-full";
    const signal = options.signal?.();
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined = undefined;
      const onAbort = () => this.#remove(waiter, "cancelled");
      // kube's enqueueToBoundLocked: an idle queue starts at the present virtual time.
      if (queue.waiting.length === 0 && queue.executing === 0) queue.nextDispatchR = this.#currentR;
      const waiter: Waiter = {
        ...request,
        queue,
        arrivalR: this.#currentR,
        settle: (outcome) => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          resolve(outcome);
        },
      };
      queue.waiting.push(waiter);
      queue.waitingSeats += maxSeats(waiter.work);
      this.#waiting++;
      timer = setTimeout(() => this.#remove(waiter, "time-out"), options.waitLimitMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#dispatchAsMuchAsPossible();
    });
  }

  /**
   * Per queue (kube's dump_queues): waiting requests, executing count, seats in use, the next dispatch R and the
   * waiting requests' total work, both in SeatSeconds units.
   */
  queues(): { waiting: readonly WaitingRequest[]; executing: number; seatsInUse: number; nextDispatchR: number; totalWork: number }[] {
    return this.#queues.map((queue) => ({
      waiting: queue.waiting,
      executing: queue.executing,
      seatsInUse: queue.seatsInUse,
      nextDispatchR: queue.nextDispatchR,
      totalWork: queue.waiting.reduce((sum, waiter) => sum + totalWork(waiter.work), 0),
    }));
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

  /** kube's chooseQueueIndexLocked: of the flow's hand, the queue whose waiting requests want the fewest seats. */
  #shortestQueueOfHand(hash: bigint, queuing: QueuingConfig): Queue {
    let best: Queue | undefined;
    for (const index of dealHand(hash, queuing.queues, Math.min(queuing.handSize, queuing.queues))) {
      const queue = this.#queues[index];
      if (!best || queue.waitingSeats < best.waitingSeats) best = queue;
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
    const startedMs = this.#clock();
    this.#executing++;
    this.#seatsInUse += seats;
    if (queue) {
      queue.executing++;
      queue.seatsInUse += seats;
    }
    const freeSeats = () => {
      this.#syncTime();
      this.#seatsInUse -= seats;
      if (queue) queue.seatsInUse -= seats;
      this.#dispatchAsMuchAsPossible();
    };
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#syncTime();
        this.#executing--;
        if (queue) {
          queue.executing--;
          // kube's finishRequestLocked: the queue is charged the real service time instead of the estimate.
          queue.nextDispatchR -= seatsTimesMs(work.initialSeats, ESTIMATED_SERVICE_MS - (this.#clock() - startedMs));
          boundNextDispatch(queue);
        }
        if (latencyMs > 0) setTimeout(freeSeats, latencyMs);
        else freeSeats();
      },
    };
  }

  #remove(waiter: Waiter, reason: RejectReason): void {
    this.#syncTime();
    const index = waiter.queue.waiting.indexOf(waiter);
    if (index < 0) return;
    waiter.queue.waiting.splice(index, 1);
    waiter.queue.waitingSeats -= maxSeats(waiter.work);
    this.#waiting--;
    waiter.settle(reason);
  }

  #dispatchAsMuchAsPossible(): void {
    while (this.#waiting > 0) {
      const index = this.#queueWithEarliestFinish();
      const queue = this.#queues[index];
      // kube dispatches the chosen queue's head or nothing: a wide request is not overtaken by narrower ones.
      if (!this.#canAccommodate(queue.waiting[0].work)) break;
      this.#robinIndex = index;
      const waiter = queue.waiting.shift()!;
      queue.waitingSeats -= maxSeats(waiter.work);
      this.#waiting--;
      queue.nextDispatchR += totalWork(waiter.work);
      boundNextDispatch(queue);
      waiter.settle(this.#seat(queue, waiter.work));
    }
    this.#resizeQueues();
  }

  /**
   * kube's findDispatchQueueLocked: the non-empty queue whose head would finish first in virtual time
   * (nextDispatchR plus the head's work), looking from the queue after the last one served so ties go round-robin.
   */
  #queueWithEarliestFinish(): number {
    let best = -1;
    let bestFinish = Infinity;
    for (let step = 1; step <= this.#queues.length; step++) {
      const index = (this.#robinIndex + step) % this.#queues.length;
      const queue = this.#queues[index];
      if (queue.waiting.length === 0) continue;
      const finish = queue.nextDispatchR + totalWork(queue.waiting[0].work);
      if (finish < bestFinish) {
        best = index;
        bestFinish = finish;
      }
    }
    if (best < 0) throw new Error("no waiting request although the count says so");
    return best;
  }

  /**
   * kube's syncTimeLocked and getVirtualTimeRatioLocked: virtual time advances by the real time passed times
   * min(seats wanted, limit) ÷ active queues, so each active queue progresses at its fair share.
   */
  #syncTime(): void {
    const nowMs = this.#clock();
    const elapsedMs = nowMs - this.#lastRealMs;
    this.#lastRealMs = nowMs;
    if (this.#waiting === 0 && this.#seatsInUse === 0) return;
    let activeQueues = 0;
    let seatsWanted = 0;
    for (const queue of this.#queues) {
      seatsWanted += queue.seatsInUse + queue.waitingSeats;
      if (queue.waiting.length > 0 || queue.executing > 0) activeQueues++;
    }
    if (activeQueues > 0) this.#currentR += seatsTimesMs(Math.min(seatsWanted, this.#limit) / activeQueues, elapsedMs);
  }

  /** As many queues as configured, plus trailing ones of an older configuration until they are idle. */
  #resizeQueues(): void {
    const wanted = this.#queuing?.queues ?? 0;
    while (this.#queues.length < wanted) {
      this.#queues.push({ waiting: [], executing: 0, seatsInUse: 0, waitingSeats: 0, nextDispatchR: this.#currentR });
    }
    while (this.#queues.length > wanted) {
      const last = this.#queues[this.#queues.length - 1];
      if (last.waiting.length > 0 || last.seatsInUse > 0) break;
      this.#queues.pop();
    }
  }
}

/** kube's estimatedServiceDuration: the time a request is assumed to execute until it has (3 ms). */
const ESTIMATED_SERVICE_MS = 3;

/** kube's SeatSeconds.String(): units of 1e-8 seat-seconds as seconds with eight decimals and "ss". */
export function seatSecondsText(units: number): string {
  const sign = units < 0 ? "-" : "";
  const magnitude = Math.abs(units);
  return `${sign}${Math.floor(magnitude / 1e8)}.${String(magnitude % 1e8).padStart(8, "0")}ss`;
}

/**
 * kube's SeatsTimesDuration: work as an integer count of 1e-8 seat-seconds (kube's fixed-point SeatSeconds), so
 * equal amounts of work compare equal and ties go round-robin.
 */
function seatsTimesMs(seats: number, ms: number): number {
  return Math.round(seats * ms * 1e5);
}

/** kube's computeTotalWork: initial seats for the estimated service time, final seats for the additional latency. */
function totalWork(work: WorkEstimate): number {
  return seatsTimesMs(work.initialSeats, ESTIMATED_SERVICE_MS) + seatsTimesMs(work.finalSeats, work.additionalLatencyMs);
}

/** kube's boundNextDispatchLocked: a queue's next dispatch does not precede its head's arrival in virtual time. */
function boundNextDispatch(queue: Queue): void {
  const head = queue.waiting[0];
  if (head && queue.nextDispatchR < head.arrivalR) queue.nextDispatchR = head.arrivalR;
}
