/** What a priority level's queue set takes and answers (kube's fairqueuing interface.go, in kubun's terms). */
import type { RatioCell } from "../metrics/series.ts";
import type { WorkEstimate } from "./work-estimate.ts";

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
  /** When it arrived, in milliseconds since the epoch. */
  arrivedAtMs: number;
  work: WorkEstimate;
}

/**
 * Series a request's flow updates inside the queue set (kube's ObserveQueueLength, AddDispatchWithNoAccommodation,
 * and AddRequestConcurrencyInUse, whose seats stay counted through a write's additional latency).
 */
export interface FlowSeries {
  concurrencyInUse: { value: number };
  queueLengthAfterEnqueue: { observe(length: number): void };
  dispatchNoAccommodation: { value: number };
}

/**
 * A level's series inside its queue set. Virtual-time gauges in seat-seconds (kube's SetCurrentR and
 * SetDispatchMetrics): R now, R at the last dispatch, the dispatched queue's start R (latest S), and the least and
 * greatest start R of the queues with requests waiting, also less the estimated work in progress (discounted).
 * Utilization ratios (kube's execSeatsGauge and reqsGaugePair): seats in use and requests executing per seat of the
 * concurrency limit, requests waiting per place of the queue length limit.
 */
export interface LevelSeries {
  seatUtilization: RatioCell;
  executingRequests: RatioCell;
  waitingRequests: RatioCell;
  currentR: { value: number };
  dispatchR: { value: number };
  latestS: { value: number };
  nextSMin: { value: number };
  nextSMax: { value: number };
  nextDiscountedSMin: { value: number };
  nextDiscountedSMax: { value: number };
}

/** A held seat; `release` frees it for the next waiting request. */
export interface Seat {
  release(): void;
}
