/**
 * The apiserver_flowcontrol_* series of kube 1.26 (names, help, labels and buckets of k8s.io/apiserver
 * pkg/util/flowcontrol/metrics/metrics.go; all ALPHA in 1.26, which component-base prints as a "[ALPHA] " help
 * prefix; none is deprecated or hidden in 1.26). Per-request updates go to cells a flow keeps (core/metrics/series.ts).
 */
import type { Registry } from "prom-client";
import type { LevelSeries, RejectReason } from "./queue-set-types.ts";
import {
  CounterSeries,
  GaugeSeries,
  type HistogramCell,
  HistogramSeries,
  type RatioCell,
  TimingRatioHistogramSeries,
  type ValueCell,
} from "../metrics/series.ts";

/** kube's requestDurationSecondsBuckets, shared by the wait and execution histograms. */
const DURATION_BUCKETS = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30];
/** kube's queueLengthBuckets. */
const QUEUE_LENGTH_BUCKETS = [0, 10, 25, 50, 100, 250, 500, 1000];
/** kube's buckets of priority_level_seat_utilization, priority_level_request_utilization, read_vs_write_current_requests. */
const SEAT_UTILIZATION_BUCKETS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1];
const REQUEST_UTILIZATION_BUCKETS = [0, 0.001, 0.0025, 0.005, 0.1, 0.25, 0.5, 0.75, 1, 10, 100];
const READ_WRITE_BUCKETS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1, 3, 10, 30, 100, 300, 1000, 3000];
/** kube's watch_count_samples buckets. */
const WATCH_COUNT_BUCKETS = [0, 1, 10, 100, 1000, 10000];
/** Up to kube's maximum seats per request. */
const SEATS_BUCKETS = [1, 2, 4, 10];
const PAIR = ["priority_level", "flow_schema"] as const;
const LEVEL = ["priority_level"] as const;
const alpha = (help: string) => `[ALPHA] ${help}`;

/** One FlowSchema's series at one priority level: what a request of that flow updates. */
export interface FlowMetrics {
  readonly dispatched: ValueCell;
  readonly inQueue: ValueCell;
  readonly executing: ValueCell;
  /** Seats held by the executing requests (kube's AddRequestConcurrencyInUse). */
  readonly concurrencyInUse: ValueCell;
  readonly estimatedSeats: HistogramCell;
  readonly regularExecution: HistogramCell;
  readonly watchExecution: HistogramCell;
  readonly waitedAndExecuted: HistogramCell;
  readonly waitedAndRejected: HistogramCell;
  readonly queueLengthAfterEnqueue: HistogramCell;
  readonly dispatchNoAccommodation: ValueCell;
  readonly watchCountSamples: HistogramCell;
  readonly priorityLevel: string;
  readonly flowSchema: string;
}

/** A priority level's concurrency figures after a borrowing adjustment (kube's NotePriorityLevelConcurrencyAdjustment). */
export interface ConcurrencyAdjustment {
  highWatermark: number;
  average: number;
  stdDev: number;
  smoothed: number;
  target: number;
  currentLimit: number;
}

export class FlowControlMetrics {
  readonly #rejected: CounterSeries;
  readonly #dispatched: CounterSeries;
  readonly #inQueue: GaugeSeries;
  readonly #executing: GaugeSeries;
  readonly #concurrencyInUse: GaugeSeries;
  readonly #wait: HistogramSeries;
  readonly #execution: HistogramSeries;
  readonly #queueLength: HistogramSeries;
  readonly #estimatedSeats: HistogramSeries;
  readonly #limit: GaugeSeries;
  readonly #nominal: GaugeSeries;
  readonly #lower: GaugeSeries;
  readonly #upper: GaugeSeries;
  readonly #highWatermark: GaugeSeries;
  readonly #average: GaugeSeries;
  readonly #stdDev: GaugeSeries;
  readonly #smoothed: GaugeSeries;
  readonly #target: GaugeSeries;
  readonly #current: GaugeSeries;
  readonly #fairFrac: GaugeSeries;
  readonly #noAccommodation: CounterSeries;
  readonly #watchCounts: HistogramSeries;
  readonly #currentR: GaugeSeries;
  readonly #dispatchR: GaugeSeries;
  readonly #latestS: GaugeSeries;
  readonly #nextS: GaugeSeries;
  readonly #nextDiscountedS: GaugeSeries;
  readonly #seatUtilization: TimingRatioHistogramSeries;
  readonly #requestUtilization: TimingRatioHistogramSeries;
  readonly #readVsWrite: TimingRatioHistogramSeries;
  readonly #flows = new Map<string, FlowMetrics>();

  constructor(registry: Registry) {
    const counter = (name: string, help: string, labels: readonly string[]) => new CounterSeries(registry, name, alpha(help), labels);
    const gauge = (name: string, help: string, labels: readonly string[]) => new GaugeSeries(registry, name, alpha(help), labels);
    const histogram = (name: string, help: string, labels: readonly string[], buckets: number[]) =>
      new HistogramSeries(registry, name, alpha(help), labels, buckets);
    const prefix = "apiserver_flowcontrol_";
    this.#rejected = counter(`${prefix}rejected_requests_total`, "Number of requests rejected by API Priority and Fairness subsystem", [
      ...PAIR,
      "reason",
    ]);
    this.#dispatched = counter(
      `${prefix}dispatched_requests_total`,
      "Number of requests executed by API Priority and Fairness subsystem",
      PAIR,
    );
    this.#inQueue = gauge(
      `${prefix}current_inqueue_requests`,
      "Number of requests currently pending in queues of the API Priority and Fairness subsystem",
      PAIR,
    );
    this.#queueLength = histogram(
      `${prefix}request_queue_length_after_enqueue`,
      "Length of queue in the API Priority and Fairness subsystem, as seen by each request after it is enqueued",
      PAIR,
      QUEUE_LENGTH_BUCKETS,
    );
    this.#limit = gauge(`${prefix}request_concurrency_limit`, "Shared concurrency limit in the API Priority and Fairness subsystem", LEVEL);
    this.#executing = gauge(
      `${prefix}current_executing_requests`,
      "Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem",
      PAIR,
    );
    this.#concurrencyInUse = gauge(
      `${prefix}request_concurrency_in_use`,
      "Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem",
      PAIR,
    );
    this.#wait = histogram(`${prefix}request_wait_duration_seconds`, "Length of time a request spent waiting in its queue", [
      ...PAIR,
      "execute",
    ], DURATION_BUCKETS);
    this.#execution = histogram(
      `${prefix}request_execution_seconds`,
      "Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem",
      [...PAIR, "type"],
      DURATION_BUCKETS,
    );
    this.#estimatedSeats = histogram(
      `${prefix}work_estimated_seats`,
      "Number of estimated seats (maximum of initial and final seats) associated with requests in API Priority and Fairness",
      PAIR,
      SEATS_BUCKETS,
    );
    this.#nominal = gauge(`${prefix}nominal_limit_seats`, "Nominal number of execution seats configured for each priority level", LEVEL);
    this.#lower = gauge(
      `${prefix}lower_limit_seats`,
      "Configured lower bound on number of execution seats available to each priority level",
      LEVEL,
    );
    this.#upper = gauge(
      `${prefix}upper_limit_seats`,
      "Configured upper bound on number of execution seats available to each priority level",
      LEVEL,
    );
    this.#highWatermark = gauge(
      `${prefix}demand_seats_high_watermark`,
      "High watermark, over last adjustment period, of demand_seats",
      LEVEL,
    );
    this.#average = gauge(`${prefix}demand_seats_average`, "Time-weighted average, over last adjustment period, of demand_seats", LEVEL);
    this.#stdDev = gauge(
      `${prefix}demand_seats_stdev`,
      "Time-weighted standard deviation, over last adjustment period, of demand_seats",
      LEVEL,
    );
    this.#smoothed = gauge(`${prefix}demand_seats_smoothed`, "Smoothed seat demands", LEVEL);
    this.#target = gauge(`${prefix}target_seats`, "Seat allocation targets", LEVEL);
    this.#fairFrac = gauge(
      `${prefix}seat_fair_frac`,
      "Fair fraction of server's concurrency to allocate to each priority level that can use it",
      [],
    );
    this.#current = gauge(
      `${prefix}current_limit_seats`,
      "current derived number of execution seats available to each priority level",
      LEVEL,
    );
    this.#noAccommodation = counter(
      `${prefix}request_dispatch_no_accommodation_total`,
      "Number of times a dispatch attempt resulted in a non accommodation due to lack of available seats",
      PAIR,
    );
    this.#watchCounts = histogram(
      `${prefix}watch_count_samples`,
      "count of watchers for mutating requests in API Priority and Fairness",
      PAIR,
      WATCH_COUNT_BUCKETS,
    );
    // kubun's virtual time is a double that never nears an overflow, so no epoch ever advances: the family stays empty.
    counter(`${prefix}epoch_advance_total`, "Number of times the queueset's progress meter jumped backward", [...LEVEL, "success"]);
    const bounds = [...LEVEL, "bound"];
    this.#seatUtilization = new TimingRatioHistogramSeries(
      registry,
      `${prefix}priority_level_seat_utilization`,
      alpha(
        "Observations, at the end of every nanosecond, of utilization of seats for any stage of execution (but only initial stage for WATCHes)",
      ),
      LEVEL,
      SEAT_UTILIZATION_BUCKETS,
      { constLabels: { phase: "executing" } },
    );
    this.#requestUtilization = new TimingRatioHistogramSeries(
      registry,
      `${prefix}priority_level_request_utilization`,
      alpha(
        "Observations, at the end of every nanosecond, of number of requests (as a fraction of the relevant limit) waiting or in any stage of execution (but only initial stage for WATCHes)",
      ),
      ["phase", ...LEVEL],
      REQUEST_UTILIZATION_BUCKETS,
    );
    this.#readVsWrite = new TimingRatioHistogramSeries(
      registry,
      `${prefix}read_vs_write_current_requests`,
      alpha(
        "Observations, at the end of every nanosecond, of the number of requests (as a fraction of the relevant limit, if max-in-flight filter is being used) waiting or in regular stage of execution",
      ),
      ["phase", "request_kind"],
      READ_WRITE_BUCKETS,
    );
    this.#currentR = gauge(`${prefix}current_r`, "R(time of last change)", LEVEL);
    this.#dispatchR = gauge(`${prefix}dispatch_r`, "R(time of last dispatch)", LEVEL);
    this.#latestS = gauge(`${prefix}latest_s`, "S(most recently dispatched request)", LEVEL);
    this.#nextS = gauge(`${prefix}next_s_bounds`, "min and max, over queues, of S(oldest waiting request in queue)", bounds);
    this.#nextDiscountedS = gauge(
      `${prefix}next_discounted_s_bounds`,
      "min and max, over queues, of S(oldest waiting request in queue) - estimated work in progress",
      bounds,
    );
  }

  /** A level's series inside its queue set (kube's SetCurrentR, SetDispatchMetrics and the level's ratioed gauges). */
  level(priorityLevel: string): LevelSeries {
    return {
      seatUtilization: this.#seatUtilization.cell(priorityLevel),
      executingRequests: this.#requestUtilization.cell("executing", priorityLevel),
      waitingRequests: this.#requestUtilization.cell("waiting", priorityLevel),
      currentR: this.#currentR.cell(priorityLevel),
      dispatchR: this.#dispatchR.cell(priorityLevel),
      latestS: this.#latestS.cell(priorityLevel),
      nextSMin: this.#nextS.cell(priorityLevel, "min"),
      nextSMax: this.#nextS.cell(priorityLevel, "max"),
      nextDiscountedSMin: this.#nextDiscountedS.cell(priorityLevel, "min"),
      nextDiscountedSMax: this.#nextDiscountedS.cell(priorityLevel, "max"),
    };
  }

  /** The series of one flow schema at one level, kept for the requests that follow. */
  flow(priorityLevel: string, flowSchema: string): FlowMetrics {
    const key = `${priorityLevel}\0${flowSchema}`;
    let flow = this.#flows.get(key);
    if (!flow) {
      const pair = [priorityLevel, flowSchema];
      flow = {
        priorityLevel,
        flowSchema,
        dispatched: this.#dispatched.cell(...pair),
        inQueue: this.#inQueue.cell(...pair),
        executing: this.#executing.cell(...pair),
        concurrencyInUse: this.#concurrencyInUse.cell(...pair),
        estimatedSeats: this.#estimatedSeats.cell(...pair),
        regularExecution: this.#execution.cell(...pair, "regular"),
        watchExecution: this.#execution.cell(...pair, "watch"),
        waitedAndExecuted: this.#wait.cell(...pair, "true"),
        waitedAndRejected: this.#wait.cell(...pair, "false"),
        queueLengthAfterEnqueue: this.#queueLength.cell(...pair),
        dispatchNoAccommodation: this.#noAccommodation.cell(...pair),
        watchCountSamples: this.#watchCounts.cell(...pair),
      };
      this.#flows.set(key, flow);
    }
    return flow;
  }

  /**
   * kube's read-vs-write ratioed gauges (GetWaitingReadonlyConcurrency and the like): requests waiting and executing
   * by kind, per place in all queues and per nominal seat of all levels.
   */
  readVsWrite(kind: "readOnly" | "mutating"): { waiting: RatioCell; executing: RatioCell } {
    return { waiting: this.#readVsWrite.cell("waiting", kind), executing: this.#readVsWrite.cell("executing", kind) };
  }

  rejected(flow: FlowMetrics, reason: RejectReason): void {
    this.#rejected.cell(flow.priorityLevel, flow.flowSchema, reason).value++;
  }

  /** kube's SetPriorityLevelConfiguration: the configured limits of a non-exempt level. */
  levelConfigured(priorityLevel: string, limits: { nominal: number; lower: number; upper: number }): void {
    this.#limit.cell(priorityLevel).value = limits.nominal;
    this.#nominal.cell(priorityLevel).value = limits.nominal;
    this.#lower.cell(priorityLevel).value = limits.lower;
    this.#upper.cell(priorityLevel).value = limits.upper;
  }

  concurrencyAdjusted(priorityLevel: string, adjustment: ConcurrencyAdjustment): void {
    this.#highWatermark.cell(priorityLevel).value = adjustment.highWatermark;
    this.#average.cell(priorityLevel).value = adjustment.average;
    this.#stdDev.cell(priorityLevel).value = adjustment.stdDev;
    this.#smoothed.cell(priorityLevel).value = adjustment.smoothed;
    this.#target.cell(priorityLevel).value = adjustment.target;
    this.#current.cell(priorityLevel).value = adjustment.currentLimit;
  }

  fairFraction(fraction: number): void {
    this.#fairFrac.cell().value = fraction;
  }
}
