/** The apiserver_flowcontrol_* series (names, help, labels and buckets of k8s.io/apiserver pkg/util/flowcontrol/metrics). */
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { RejectReason } from "./queue-set.ts";

/** kube's requestDurationSecondsBuckets, shared by the wait and execution histograms. */
const DURATION_BUCKETS = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30];

type Labelled<T> = { inc(value?: number): void; dec?(value?: number): void } & T;
type Observed = { observe(value: number): void };

export class FlowControlMetrics {
  readonly #rejected: Counter<"priority_level" | "flow_schema" | "reason">;
  readonly #dispatched: Counter<"priority_level" | "flow_schema">;
  readonly #inQueue: Gauge<"priority_level" | "flow_schema">;
  readonly #executing: Gauge<"priority_level" | "flow_schema">;
  readonly #wait: Histogram<"priority_level" | "flow_schema" | "execute">;
  readonly #execution: Histogram<"priority_level" | "flow_schema" | "type">;
  readonly #limit: Gauge<"priority_level">;
  readonly #estimatedSeats: Histogram<"priority_level" | "flow_schema">;
  /** Label children per priority level and FlowSchema, so a request does not build label objects. */
  readonly #children = new Map<string, {
    dispatched: Labelled<object>;
    inQueue: Labelled<object>;
    executing: Labelled<object>;
    estimatedSeats: Observed;
    regularExecution: Observed;
    watchExecution: Observed;
  }>();

  constructor(registry: Registry) {
    const registers = [registry];
    const pair = ["priority_level", "flow_schema"] as const;
    this.#rejected = new Counter({
      name: "apiserver_flowcontrol_rejected_requests_total",
      help: "Number of requests rejected by API Priority and Fairness subsystem",
      labelNames: [...pair, "reason"],
      registers,
    });
    this.#dispatched = new Counter({
      name: "apiserver_flowcontrol_dispatched_requests_total",
      help: "Number of requests executed by API Priority and Fairness subsystem",
      labelNames: pair,
      registers,
    });
    this.#inQueue = new Gauge({
      name: "apiserver_flowcontrol_current_inqueue_requests",
      help: "Number of requests currently pending in queues of the API Priority and Fairness subsystem",
      labelNames: pair,
      registers,
    });
    this.#executing = new Gauge({
      name: "apiserver_flowcontrol_current_executing_requests",
      help:
        "Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem",
      labelNames: pair,
      registers,
    });
    this.#wait = new Histogram({
      name: "apiserver_flowcontrol_request_wait_duration_seconds",
      help: "Length of time a request spent waiting in its queue",
      labelNames: [...pair, "execute"],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.#execution = new Histogram({
      name: "apiserver_flowcontrol_request_execution_seconds",
      help:
        "Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem",
      labelNames: [...pair, "type"],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.#limit = new Gauge({
      name: "apiserver_flowcontrol_request_concurrency_limit",
      help: "Shared concurrency limit in the API Priority and Fairness subsystem",
      labelNames: ["priority_level"],
      registers,
    });
    this.#estimatedSeats = new Histogram({
      name: "apiserver_flowcontrol_work_estimated_seats",
      help: "Number of estimated seats (maximum of initial and final seats) associated with requests in API Priority and Fairness",
      labelNames: pair,
      // Up to kube's maximum seats per request.
      buckets: [1, 2, 4, 10],
      registers,
    });
  }

  #of(priorityLevel: string, flowSchema: string) {
    const key = `${priorityLevel}\0${flowSchema}`;
    let children = this.#children.get(key);
    if (!children) {
      const labels = { priority_level: priorityLevel, flow_schema: flowSchema };
      children = {
        dispatched: this.#dispatched.labels(labels),
        inQueue: this.#inQueue.labels(labels),
        executing: this.#executing.labels(labels),
        estimatedSeats: this.#estimatedSeats.labels(labels),
        regularExecution: this.#execution.labels({ ...labels, type: "regular" }),
        watchExecution: this.#execution.labels({ ...labels, type: "watch" }),
      };
      this.#children.set(key, children);
    }
    return children;
  }

  queued(priorityLevel: string, flowSchema: string, delta: 1 | -1): void {
    this.#of(priorityLevel, flowSchema).inQueue.inc(delta);
  }

  /**
   * A request starts executing; the returned function ends it (a watch's initial stage) and records how long it ran
   * (kube's ObserveExecutionDuration, type "watch" or "regular"). `waitedSeconds` is undefined when it never queued.
   */
  dispatched(priorityLevel: string, flowSchema: string, waitedSeconds: number | undefined, isWatch: boolean): () => void {
    const children = this.#of(priorityLevel, flowSchema);
    children.dispatched.inc();
    children.executing.inc();
    if (waitedSeconds !== undefined) {
      this.#wait.observe({ priority_level: priorityLevel, flow_schema: flowSchema, execute: "true" }, waitedSeconds);
    }
    const started = performance.now();
    return () => {
      children.executing.inc(-1);
      (isWatch ? children.watchExecution : children.regularExecution).observe((performance.now() - started) / 1000);
    };
  }

  rejected(priorityLevel: string, flowSchema: string, reason: RejectReason, waitedSeconds: number | undefined): void {
    this.#rejected.inc({ priority_level: priorityLevel, flow_schema: flowSchema, reason });
    if (waitedSeconds !== undefined) {
      this.#wait.observe({ priority_level: priorityLevel, flow_schema: flowSchema, execute: "false" }, waitedSeconds);
    }
  }

  estimatedSeats(priorityLevel: string, flowSchema: string, seats: number): void {
    this.#of(priorityLevel, flowSchema).estimatedSeats.observe(seats);
  }

  concurrencyLimit(priorityLevel: string, limit: number): void {
    this.#limit.set({ priority_level: priorityLevel }, limit);
  }
}
