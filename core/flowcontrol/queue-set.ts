/**
 * One priority level's admission (kube's fairqueuing/queueset, queueset.go): requests execute while their seats
 * (kube's WorkEstimate.MaxSeats) fit in the level's `limit`; a request wider than the whole limit runs alone. A
 * level that queues puts every request in a queue first (kube's timeoutOldRequestsAndRejectOrEnqueueLocked: of
 * the flow's shuffle-sharded hand, the queue with the least work waiting, visited from a rotating offset) and then
 * dispatches as much as the seats allow (dispatchAsMuchAsPossibleLocked), so a request that finds a seat free is
 * charged to its queue like any other: freed seats go to the queue whose head would finish first in virtual time
 * (virtual time R advances at min(seats wanted, limit) ÷ active queues per second; a dispatched request adds its
 * work — seats × an estimated 3 ms plus final seats × additional latency — to its queue's next dispatch R,
 * corrected by the time it really took; ties go round-robin). A level without queues dispatches without a queue
 * (dispatchSansQueueLocked). A request is rejected when its queue is full ("queue-full"), when the level does not
 * queue and has no seat free ("concurrency-limit"), when it waited past the limit ("time-out") or when its client
 * went away ("cancelled"), the reasons kube's rejected_requests_total counts. The seats wanted (in use plus
 * waiting) are integrated over time for the borrowing between levels (kube's seatDemandIntegrator).
 */
import { Integrator, type IntegratorResults } from "./integrator.ts";
import { ESTIMATED_SERVICE_MS, SEAT_SECOND, seatsTimesMs, totalWork } from "./seat-seconds.ts";
import type { FlowSeries, LevelSeries, QueuingConfig, RejectReason, Seat, WaitingRequest } from "./queue-set-types.ts";
import { dealHand } from "./shuffle-sharding.ts";
import { boundNextDispatch, HeldSeat, isIdle, type Queue, Waiter } from "./_queue.ts";
import { maxSeats, type WorkEstimate } from "./work-estimate.ts";

/** Hands dealt per flow hash are kept up to this many flows, then dealt afresh. */
const MAX_REMEMBERED_HANDS = 4096;

export class QueueSet {
  #limit: number;
  #queuing: QueuingConfig | undefined;
  #queues: Queue[] = [];
  /** The queues with requests waiting: the dispatch looks at these only, not at every queue of the set. */
  readonly #nonEmpty: Queue[] = [];
  #executing = 0;
  #seatsInUse = 0;
  #waiting = 0;
  #seatsWaiting = 0;
  /** Queues with a request waiting or executing, and their seats in use plus waiting (kube's virtual time ratio). */
  #activeQueues = 0;
  #queueSeatsWanted = 0;
  #robinIndex = -1;
  /** kube's qs.enqueues: where the next shuffle-shard visit of a hand starts. */
  #enqueues = 0;
  readonly #hands = new Map<bigint, number[]>();
  /**
   * Virtual time (in SeatSeconds units per queue) and the real time (ms) it was last advanced at: every operation
   * reads the clock once, and its bookkeeping and series take that reading.
   */
  #currentR = 0;
  #nowMs: number;
  readonly #clock: () => number;
  readonly #finish = (seat: HeldSeat) => this.#release(seat);
  readonly #seatDemand: Integrator;
  readonly #gauges: LevelSeries | undefined;
  /** The start R bounds over the non-empty queues, found with the queue to dispatch from. */
  readonly #bounds = { sMin: 0, sMax: 0, discountedSMin: 0, discountedSMax: 0 };

  /** `clock` gives real time in milliseconds (replaceable in tests); `gauges` read the same clock. */
  constructor(
    limit: number,
    queuing?: QueuingConfig,
    clock: () => number = performance.now.bind(performance),
    gauges?: LevelSeries,
  ) {
    this.#gauges = gauges;
    this.#limit = limit;
    this.#queuing = queuing;
    this.#noteLimits();
    this.#clock = clock;
    this.#nowMs = clock();
    this.#seatDemand = new Integrator(clock);
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
    this.#noteLimits();
    this.#hands.clear();
    this.#resizeQueues();
    this.#dispatchAsMuchAsPossible();
  }

  /** A new concurrency limit from the borrowing adjustment (kube's DispatchingConfig.ConcurrencyLimit). */
  setLimit(limit: number): void {
    if (limit === this.#limit) return;
    this.#syncTime();
    this.#limit = limit;
    this.#noteLimits();
    this.#dispatchAsMuchAsPossible();
  }

  /** The seat demand since the last call, and a new period from now (kube's seatDemandIntegrator.Reset). */
  takeSeatDemand(): IntegratorResults {
    return this.#seatDemand.reset();
  }

  /**
   * A seat at once, a rejection at once, or (when the request has to wait) a promise of either. `flowHash` is asked
   * for only when the level queues; `cancellation`'s signal only when the request has to wait.
   */
  admit(
    request: WaitingRequest & { details?: unknown },
    flowHash: () => bigint,
    options: { waitLimitMs: number; series?: FlowSeries },
    cancellation?: { readonly signal: AbortSignal },
  ): Seat | RejectReason | Promise<Seat | RejectReason> {
    this.#syncTime();
    const queuing = this.#queuing;
    if (!queuing) return this.#canAccommodate(request.work) ? this.#seat(undefined, request.work, options.series) : "concurrency-limit";
    const queue = this.#shuffleShard(flowHash(), queuing);
    // kube's rejectOrEnqueueToBoundLocked: a full queue refuses only while every seat is taken.
    if (this.#seatsInUse >= this.#limit && queue.waiting.length >= queuing.queueLengthLimit) return "queue-full";
    const waiter = new Waiter(request, queue, this.#currentR, options.series);
    this.#enqueue(waiter);
    // kube's ObserveQueueLength: the queue's length with this request in it, before anything is dispatched.
    options.series?.queueLengthAfterEnqueue.observe(queue.waiting.length);
    this.#dispatchAsMuchAsPossible();
    if (waiter.outcome !== undefined) return waiter.outcome;
    return new Promise((resolve) => {
      const signal = cancellation?.signal;
      const onAbort = () => this.#remove(waiter, "cancelled");
      const timer = setTimeout(() => this.#remove(waiter, "time-out"), options.waitLimitMs);
      waiter.deliver = (settled) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        resolve(settled);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      if (signal?.aborted) onAbort();
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
      totalWork: queue.waitingWork,
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

  /**
   * kube's shuffleShardLocked: of the flow's hand, the queue whose waiting requests carry the least work, visiting
   * the hand from an offset that advances with every request so equal queues take turns.
   */
  #shuffleShard(hash: bigint, queuing: QueuingConfig): Queue {
    let hand = this.#hands.get(hash);
    if (!hand) {
      if (this.#hands.size >= MAX_REMEMBERED_HANDS) this.#hands.clear();
      hand = dealHand(hash, queuing.queues, Math.min(queuing.handSize, queuing.queues));
      this.#hands.set(hash, hand);
    }
    const offset = this.#enqueues % hand.length;
    this.#enqueues++;
    let best: Queue | undefined;
    for (let i = 0; i < hand.length; i++) {
      const queue = this.#queues[hand[(offset + i) % hand.length]!]!;
      if (!best || queue.waitingWork < best.waitingWork) best = queue;
    }
    return best!;
  }

  /** kube's enqueueToBoundLocked: an idle queue starts at the present virtual time. */
  #enqueue(waiter: Waiter): void {
    const queue = waiter.queue;
    if (isIdle(queue)) {
      queue.nextDispatchR = this.#currentR;
      this.#activeQueues++;
    }
    if (queue.waiting.length === 0) this.#nonEmpty.push(queue);
    queue.waiting.push(waiter);
    queue.waitingWork += totalWork(waiter.work);
    this.#waiting++;
    this.#seatsWaiting += maxSeats(waiter.work);
    this.#queueSeatsWanted += maxSeats(waiter.work);
    this.#noteSeatDemand();
    boundNextDispatch(queue);
  }

  /** Takes a waiting request out of its queue; false when it had left already. */
  #dequeue(waiter: Waiter): boolean {
    const queue = waiter.queue;
    const index = queue.waiting.indexOf(waiter);
    if (index < 0) return false;
    queue.waiting.splice(index, 1);
    if (queue.waiting.length === 0) this.#nonEmpty.splice(this.#nonEmpty.indexOf(queue), 1);
    queue.waitingWork -= totalWork(waiter.work);
    this.#waiting--;
    this.#seatsWaiting -= maxSeats(waiter.work);
    this.#queueSeatsWanted -= maxSeats(waiter.work);
    return true;
  }

  /**
   * Occupies the request's seats until release, and then for its additional latency (kube's finishRequestLocked
   * frees MaxSeats only once the watch events' time is over); a capped final width stretches that time so the
   * estimated work stays the same.
   */
  #seat(queue: Queue | undefined, work: WorkEstimate, series: FlowSeries | undefined): Seat {
    const seats = this.#reservedSeats(work);
    const finalSeats = Math.min(work.finalSeats, this.#limit);
    const latencyMs = finalSeats > 0 ? (work.additionalLatencyMs * work.finalSeats) / finalSeats : 0;
    this.#executing++;
    this.#seatsInUse += seats;
    if (series) series.concurrencyInUse.value += seats;
    this.#noteSeatDemand();
    if (queue) {
      queue.executing++;
      queue.seatsInUse += seats;
      this.#queueSeatsWanted += seats;
    }
    return new HeldSeat(queue, work, seats, latencyMs, this.#nowMs, series, this.#finish);
  }

  #release(seat: HeldSeat): void {
    this.#syncTime();
    this.#executing--;
    this.#gauges?.executingRequests.setNumerator(this.#executing, this.#nowMs);
    const queue = seat.queue;
    if (queue) {
      queue.executing--;
      if (isIdle(queue)) this.#activeQueues--;
      // kube's finishRequestLocked: the queue is charged the real service time instead of the estimate.
      queue.nextDispatchR -= seatsTimesMs(seat.work.initialSeats, ESTIMATED_SERVICE_MS - (this.#nowMs - seat.startedMs));
      boundNextDispatch(queue);
    }
    if (seat.latencyMs > 0) setTimeout(() => this.#freeSeats(seat), seat.latencyMs);
    else this.#freeSeats(seat);
  }

  #freeSeats(seat: HeldSeat): void {
    if (seat.latencyMs > 0) this.#syncTime();
    this.#seatsInUse -= seat.seats;
    if (seat.series) seat.series.concurrencyInUse.value -= seat.seats;
    this.#noteSeatDemand();
    if (seat.queue) {
      seat.queue.seatsInUse -= seat.seats;
      this.#queueSeatsWanted -= seat.seats;
    }
    this.#dispatchAsMuchAsPossible();
  }

  #remove(waiter: Waiter, reason: RejectReason): void {
    this.#syncTime();
    if (!this.#dequeue(waiter)) return;
    if (isIdle(waiter.queue)) this.#activeQueues--;
    this.#noteSeatDemand();
    boundNextDispatch(waiter.queue);
    waiter.settle(reason);
  }

  /** kube's dispatchAsMuchAsPossibleLocked and dispatchLocked. */
  #dispatchAsMuchAsPossible(): void {
    while (this.#waiting > 0 && this.#seatsInUse < this.#limit) {
      const queue = this.#queueWithEarliestFinish();
      const waiter = queue.waiting[0]!;
      // kube dispatches the chosen queue's head or nothing: a wide request is not overtaken by narrower ones.
      if (!this.#canAccommodate(waiter.work)) {
        if (waiter.series) waiter.series.dispatchNoAccommodation.value++;
        break;
      }
      this.#robinIndex = queue.index;
      this.#noteDispatch(queue);
      this.#dequeue(waiter);
      queue.nextDispatchR += totalWork(waiter.work);
      boundNextDispatch(queue);
      waiter.settle(this.#seat(queue, waiter.work, waiter.series));
    }
    this.#resizeQueues();
  }

  /**
   * kube's findDispatchQueueToBoundLocked: the non-empty queue whose head would finish first in virtual time
   * (nextDispatchR plus the head's work); of equal ones, the first after the last queue served, so ties go
   * round-robin. Only the non-empty queues are looked at, which is what kube's walk over all of them finds too.
   */
  #queueWithEarliestFinish(): Queue {
    let best: Queue | undefined;
    let bestFinish = Infinity;
    let bestTurn = Infinity;
    const count = this.#queues.length;
    const bounds = this.#bounds;
    bounds.sMin = bounds.discountedSMin = Infinity;
    bounds.sMax = bounds.discountedSMax = -Infinity;
    for (const queue of this.#nonEmpty) {
      const discounted = queue.nextDispatchR - seatsTimesMs(queue.seatsInUse, ESTIMATED_SERVICE_MS);
      bounds.sMin = Math.min(bounds.sMin, queue.nextDispatchR);
      bounds.sMax = Math.max(bounds.sMax, queue.nextDispatchR);
      bounds.discountedSMin = Math.min(bounds.discountedSMin, discounted);
      bounds.discountedSMax = Math.max(bounds.discountedSMax, discounted);
      const finish = queue.nextDispatchR + totalWork(queue.waiting[0]!.work);
      // Its place in the round from the queue after the last one served.
      const turn = (((queue.index - this.#robinIndex - 1) % count) + count) % count;
      if (finish < bestFinish || (finish === bestFinish && turn < bestTurn)) {
        best = queue;
        bestFinish = finish;
        bestTurn = turn;
      }
    }
    if (!best) throw new Error("no waiting request although the count says so");
    return best;
  }

  /**
   * kube's syncTimeLocked and getVirtualTimeRatioLocked: virtual time advances by the real time passed times
   * min(seats wanted, limit) ÷ active queues, so each active queue progresses at its fair share. Both are kept as
   * counts rather than summed over the queues on every request.
   */
  #syncTime(): void {
    const nowMs = this.#clock();
    const elapsedMs = nowMs - this.#nowMs;
    this.#nowMs = nowMs;
    if (this.#activeQueues === 0) return;
    this.#currentR += seatsTimesMs(Math.min(this.#queueSeatsWanted, this.#limit) / this.#activeQueues, elapsedMs);
    if (this.#gauges) this.#gauges.currentR.value = this.#currentR / SEAT_SECOND;
  }

  /** kube's SetDispatchMetrics, as a request leaves `queue` to execute. */
  #noteDispatch(queue: Queue): void {
    const gauges = this.#gauges;
    if (!gauges) return;
    const bounds = this.#bounds;
    gauges.dispatchR.value = this.#currentR / SEAT_SECOND;
    gauges.latestS.value = queue.nextDispatchR / SEAT_SECOND;
    gauges.nextSMin.value = bounds.sMin / SEAT_SECOND;
    gauges.nextSMax.value = bounds.sMax / SEAT_SECOND;
    gauges.nextDiscountedSMin.value = bounds.discountedSMin / SEAT_SECOND;
    gauges.nextDiscountedSMax.value = bounds.discountedSMax / SEAT_SECOND;
  }

  /**
   * kube sets its seat demand integrator to totSeatsInUse + totSeatsWaiting whenever either changes, and its
   * utilization ratios to the seats and requests executing and the requests waiting.
   */
  #noteSeatDemand(): void {
    const nowMs = this.#nowMs;
    this.#seatDemand.set(this.#seatsInUse + this.#seatsWaiting, nowMs);
    const gauges = this.#gauges;
    if (!gauges) return;
    gauges.seatUtilization.setNumerator(this.#seatsInUse, nowMs);
    gauges.executingRequests.setNumerator(this.#executing, nowMs);
    gauges.waitingRequests.setNumerator(this.#waiting, nowMs);
  }

  /** kube's setConfiguration: executing ratios are per seat of the concurrency limit, waiting per queue place. */
  #noteLimits(): void {
    const gauges = this.#gauges;
    if (!gauges) return;
    gauges.seatUtilization.setDenominator(this.#limit);
    gauges.executingRequests.setDenominator(this.#limit);
    gauges.waitingRequests.setDenominator(this.#queuing?.queueLengthLimit ?? 1);
  }

  /** As many queues as configured, plus trailing ones of an older configuration until they are idle. */
  #resizeQueues(): void {
    const wanted = this.#queuing?.queues ?? 0;
    while (this.#queues.length < wanted) {
      this.#queues.push({
        index: this.#queues.length,
        waiting: [],
        executing: 0,
        seatsInUse: 0,
        waitingWork: 0,
        nextDispatchR: this.#currentR,
      });
    }
    while (this.#queues.length > wanted) {
      const last = this.#queues[this.#queues.length - 1]!;
      if (last.waiting.length > 0 || last.seatsInUse > 0) break;
      this.#queues.pop();
    }
  }
}
