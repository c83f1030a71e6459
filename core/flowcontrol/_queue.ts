/**
 * The pieces of a priority level's queue set (queue-set.ts): its queues (kube's queueset queue), the requests
 * waiting in them and the seats executing requests hold.
 */
import type { FlowSeries, RejectReason, Seat, WaitingRequest } from "./queue-set-types.ts";
import type { WorkEstimate } from "./work-estimate.ts";

export interface Queue {
  /** Its place in the set's queues, for the round-robin order of ties. */
  readonly index: number;
  waiting: Waiter[];
  executing: number;
  seatsInUse: number;
  /** The waiting requests' work in SeatSeconds units (kube's QueueSum TotalWorkSum). */
  waitingWork: number;
  /** kube's queue.nextDispatchR: the virtual time at which its head may start. */
  nextDispatchR: number;
}

/** A request in a queue; its outcome is kept until someone waits for it (a request dispatched at once never does). */
export class Waiter implements WaitingRequest {
  readonly flowSchema: string;
  readonly distinguisher: string;
  readonly arrivedAtMs: number;
  readonly work: WorkEstimate;
  readonly details: unknown;
  outcome: Seat | RejectReason | undefined;
  deliver: ((outcome: Seat | RejectReason) => void) | undefined;

  constructor(
    request: WaitingRequest & { details?: unknown },
    readonly queue: Queue,
    /** Virtual time at arrival: the queue's next dispatch never precedes it (kube's boundNextDispatchLocked). */
    readonly arrivalR: number,
    readonly series: FlowSeries | undefined,
  ) {
    this.flowSchema = request.flowSchema;
    this.distinguisher = request.distinguisher;
    this.arrivedAtMs = request.arrivedAtMs;
    this.work = request.work;
    this.details = request.details;
  }

  settle(outcome: Seat | RejectReason): void {
    if (this.deliver) this.deliver(outcome);
    else this.outcome = outcome;
  }
}

/**
 * Seats held by an executing request. `release` hands them back through the set's one `finish` function, so a
 * request allocates no closures of its own.
 */
export class HeldSeat implements Seat {
  #released = false;

  constructor(
    readonly queue: Queue | undefined,
    readonly work: WorkEstimate,
    readonly seats: number,
    /** How long the final seats stay taken after release (kube's additional latency, stretched when capped). */
    readonly latencyMs: number,
    readonly startedMs: number,
    readonly series: FlowSeries | undefined,
    readonly finish: (seat: HeldSeat) => void,
  ) {}

  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.finish(this);
  }
}

export function isIdle(queue: Queue): boolean {
  return queue.waiting.length === 0 && queue.executing === 0;
}

/** kube's boundNextDispatchLocked: a queue's next dispatch does not precede its head's arrival in virtual time. */
export function boundNextDispatch(queue: Queue): void {
  const head = queue.waiting[0];
  if (head && queue.nextDispatchR < head.arrivalR) queue.nextDispatchR = head.arrivalR;
}
