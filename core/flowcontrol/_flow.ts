/**
 * What the flow controller (controller.ts) keeps per priority level and per classified flow, and the seat an
 * admitted request holds.
 */
import type { KubeObject } from "../api/types.ts";
import type { LevelLimits, SeatDemandStats } from "./borrowing.ts";
import type { Classification } from "./classifier.ts";
import type { FlowMetrics } from "./metrics.ts";
import type { QueueSet } from "./queue-set.ts";
import type { Seat } from "./queue-set-types.ts";
import type { RatioCell } from "../metrics/series.ts";
import { hashFlowID } from "./shuffle-sharding.ts";

export interface LevelState {
  object: KubeObject;
  queues: QueueSet;
  exempt: boolean;
  /** Undefined for the exempt level, which neither lends nor borrows in kube 1.26. */
  limits?: LevelLimits;
  currentLimit: number;
  seatDemand: SeatDemandStats;
}

/** Requests waiting and executing of one kind, for kube's read_vs_write_current_requests. */
export interface KindCounts {
  waiting: number;
  executing: number;
  series: { waiting: RatioCell; executing: RatioCell };
}

/**
 * A classified kind of request: where it goes, the series it updates, and what its requests hand the queue set,
 * made once per flow so that a request allocates none of it.
 */
export class Flow {
  #hash: bigint | undefined;
  readonly queuing: { waitLimitMs: number; series: FlowMetrics };
  /** kube's hashFlowID, computed when the flow's first request meets a queue. */
  readonly hash = (): bigint => (this.#hash ??= hashFlowID(this.classification.flowSchema, this.classification.distinguisher));

  constructor(readonly classification: Classification, readonly level: LevelState, readonly metrics: FlowMetrics, waitLimitMs: number) {
    this.queuing = { waitLimitMs, series: metrics };
  }
}

/** An admitted request's seat: releasing it records the execution and frees the level's seats. */
export class ExecutingRequest implements Seat {
  #released = false;

  /** Whether the level was exempt at dispatch (a reconfiguration may change it while the request runs). */
  readonly exempt: boolean;

  constructor(
    readonly flow: Flow,
    readonly kind: KindCounts,
    readonly watch: boolean,
    readonly seat: Seat,
    readonly startedMs: number,
  ) {
    this.exempt = flow.level.exempt;
  }

  /** A function of its own: the filter hands it on as the callback for when the response is written out. */
  readonly release = (): void => {
    if (this.#released) return;
    this.#released = true;
    const nowMs = performance.now();
    const metrics = this.flow.metrics;
    if (!this.exempt) metrics.executing.value--;
    this.kind.series.executing.setNumerator(--this.kind.executing, nowMs);
    (this.watch ? metrics.watchExecution : metrics.regularExecution).observe((nowMs - this.startedMs) / 1000);
    this.seat.release();
  };
}
