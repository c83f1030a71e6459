/**
 * API Priority and Fairness (kube's apf_controller.go configController and apf_filter.go): follows the
 * FlowSchemas and PriorityLevelConfigurations, keeps kube's bootstrap objects in place, classifies each request
 * to a FlowSchema and priority level, and admits it through that level's queues. Each limited level has a nominal
 * limit of ceil(serverConcurrencyLimit × shares / sum of shares) seats; its current limit moves between its lower
 * and upper limits as levels lend and borrow seats every 10 s (borrowing.ts, kube 1.26's updateBorrowing).
 * Classifications are remembered until the configuration changes (classifier.ts).
 */
import type { Registry as MetricsRegistry } from "prom-client";
import type { KubeObject } from "../api/types.ts";
import { Informer } from "../controllers/runtime/mod.ts";
import type { Catalog } from "../registry/catalog.ts";
import type { Registry } from "../registry/registry.ts";
import { logger } from "../log/mod.ts";
import type { ResourceStore } from "../registry/store.ts";
import type { Storage } from "../storage/storage.ts";
import { FLOWCONTROL_GROUP, FLOWCONTROL_VERSION, MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS } from "../api/flowcontrol-bootstrap.ts";
import { type DumpedLevel, dumpPriorityLevels, dumpQueues, dumpRequests, type RequestDetails } from "./debug.ts";
import { updateDanglingConditions } from "./dangling.ts";
import { ensureFlowControlBootstrap } from "./ensure.ts";
import type { RequestDigest } from "./matching.ts";
import { type Classification, Classifier } from "./classifier.ts";
import {
  allocateConcurrency,
  allocationItem,
  BORROWING_ADJUSTMENT_PERIOD_MS,
  levelLimits,
  newSeatDemandStats,
  updateSeatDemandStats,
} from "./borrowing.ts";
import { FlowControlMetrics, type FlowMetrics } from "./metrics.ts";
import { ObjectCounts } from "./object-counts.ts";
import { QueueSet } from "./queue-set.ts";
import type { QueuingConfig, RejectReason, Seat } from "./queue-set-types.ts";
import { WatchCounts, type WatchedScope } from "./watch-counts.ts";
import { ExecutingRequest, Flow, type KindCounts, type LevelState } from "./_flow.ts";
import { estimateWork, maxSeats, type WorkCounts } from "./work-estimate.ts";

export interface FlowControlOptions {
  /** --max-requests-inflight plus --max-mutating-requests-inflight, as kube's BuildPriorityAndFairness sums them. */
  serverConcurrencyLimit: number;
  /** How long a request may wait in a queue (kube: a quarter of --request-timeout). */
  queueWaitLimitMs: number;
  metricsRegistry: MetricsRegistry;
  /** Where the stored objects are counted for the LIST work estimate. */
  storage: Storage;
  /** How often the bootstrap objects are put back (kube's config producer re-ensures every minute). */
  ensureIntervalMs?: number;
}

export type Admission = { classification: Classification } & ({ seat: Seat } | { rejected: RejectReason });

/** What a request brings to admission: its digest, the details the debug dump shows, and its query (for a LIST). */
export type AdmittedRequest = RequestDigest & RequestDetails & { query: URLSearchParams };

const log = logger("flowcontrol");
/** What an exempt request holds: nothing to give back. */
const IMMEDIATE: Seat = { release() {} };
const ENSURE_INTERVAL_MS = 60_000;
/** kube's nonMutatingRequestVerbs. */
export const NON_MUTATING_VERBS: ReadonlySet<string> = new Set(["get", "list", "watch"]);

export class FlowControl {
  readonly #flowSchemas: Informer;
  readonly #priorityLevels: Informer;
  readonly #stores: { flowSchemas: ResourceStore; priorityLevels: ResourceStore };
  readonly #options: FlowControlOptions;
  readonly #metrics: FlowControlMetrics;
  readonly #objectCounts: ObjectCounts;
  readonly #watchCounts = new WatchCounts();
  readonly #levels = new Map<string, LevelState>();
  #classifier!: Classifier<LevelState, Flow>;
  /** The limited levels' nominal limits summed (kube's nominalCLSum): what their current limits add up to. */
  #nominalLimitSum = 0;
  readonly #workCounts: WorkCounts;
  /** The flow whose work is being estimated: kube samples each write's watch count for it (ObserveWatchCount). */
  #estimating: FlowMetrics | undefined;
  /** Requests waiting and executing by kind, for kube's read_vs_write_current_requests. */
  readonly #byKind: Record<"readOnly" | "mutating", KindCounts>;
  readonly #stops: (() => void)[] = [];

  private constructor(registry: Registry, catalog: Catalog, options: FlowControlOptions) {
    const type = (resource: string) => catalog.byGroupVersionResource(FLOWCONTROL_GROUP, FLOWCONTROL_VERSION, resource)!;
    this.#flowSchemas = new Informer(type("flowschemas"));
    this.#priorityLevels = new Informer(type("prioritylevelconfigurations"));
    // kube's bootstrap configuration objects are the server's own start-up writes (Registry.bootstrapWriter()).
    const writer = registry.bootstrapWriter();
    this.#stores = {
      flowSchemas: writer.store(type("flowschemas")),
      priorityLevels: writer.store(type("prioritylevelconfigurations")),
    };
    this.#options = options;
    this.#metrics = new FlowControlMetrics(options.metricsRegistry);
    this.#objectCounts = new ObjectCounts(options.storage, options.metricsRegistry);
    this.#byKind = {
      readOnly: { waiting: 0, executing: 0, series: this.#metrics.readVsWrite("readOnly") },
      mutating: { waiting: 0, executing: 0, series: this.#metrics.readVsWrite("mutating") },
    };
    this.#workCounts = {
      objects: (groupResource) => this.#objectCounts.get(groupResource),
      interestedWatches: (estimated) => {
        const count = this.#watchCounts.interested(estimated);
        this.#estimating?.watchCountSamples.observe(count);
        return count;
      },
    };
  }

  /** Follows the configuration, writes the bootstrap objects, and keeps them (every ensure interval). */
  static async start(registry: Registry, catalog: Catalog, options: FlowControlOptions): Promise<FlowControl> {
    const flowControl = new FlowControl(registry, catalog, options);
    const stores = flowControl.#stores;
    await Promise.all([flowControl.#flowSchemas, flowControl.#priorityLevels].map((informer) => informer.start(registry)));
    await ensureFlowControlBootstrap(stores);
    await flowControl.#objectCounts.track(catalog.all());
    flowControl.#stops.push(
      () => flowControl.#objectCounts.stop(),
      catalog.onChange((change) => {
        if (change.type === "added") void flowControl.#objectCounts.track([change.resourceType]).catch(logFailure);
      }),
    );
    let scheduled = false;
    const changed = () => {
      if (scheduled) return;
      scheduled = true;
      queueMicrotask(() => {
        scheduled = false;
        flowControl.#digest();
      });
    };
    for (const informer of [flowControl.#flowSchemas, flowControl.#priorityLevels]) flowControl.#stops.push(informer.onChange(changed));
    flowControl.#digest();
    const timer = setInterval(
      () => void ensureFlowControlBootstrap(stores).catch(logFailure),
      options.ensureIntervalMs ?? ENSURE_INTERVAL_MS,
    );
    const borrowing = setInterval(() => flowControl.#adjustBorrowing(), BORROWING_ADJUSTMENT_PERIOD_MS);
    flowControl.#stops.push(() => clearInterval(timer), () => clearInterval(borrowing));
    return flowControl;
  }

  stop(): void {
    for (const stop of this.#stops.splice(0)) stop();
    this.#flowSchemas.stop();
    this.#priorityLevels.stop();
  }

  /**
   * Classifies the request, estimates its seats (kube's WorkEstimator) and waits for them at its level, or says why
   * it was rejected; a request that need not wait is answered at once, without a promise. `cancellation`'s signal is
   * read only when the request queues: materializing a request's signal costs more than classifying it. An exempt
   * request runs at once, with no estimate and outside any queue set (kube 1.26's startRequest answers it with an
   * immediateRequest), so only the dispatch and execution series see it.
   */
  admit(request: AdmittedRequest, cancellation?: { readonly signal: AbortSignal }): Admission | Promise<Admission> {
    const flow = this.#classifier.flowOf(request);
    const arrivedMs = performance.now();
    const kind = this.#byKind[NON_MUTATING_VERBS.has(request.verb) ? "readOnly" : "mutating"];
    const watch = request.verb === "watch";
    if (flow.level.exempt) return this.#dispatched(flow, kind, watch, IMMEDIATE, arrivedMs);
    this.#estimating = flow.metrics;
    const work = estimateWork(request, this.#workCounts);
    this.#estimating = undefined;
    flow.metrics.estimatedSeats.observe(maxSeats(work));
    const { flowSchema, distinguisher } = flow.classification;
    const waiting = { flowSchema, distinguisher, arrivedAtMs: Date.now(), work, details: request };
    const outcome = flow.level.queues.admit(waiting, flow.hash, flow.queuing, cancellation);
    if (outcome instanceof Promise) return this.#waitFor(outcome, flow, kind, watch, arrivedMs);
    if (typeof outcome === "string") return this.#rejected(flow, outcome);
    return this.#dispatched(flow, kind, watch, outcome, arrivedMs);
  }

  async #waitFor(
    outcome: Promise<Seat | RejectReason>,
    flow: Flow,
    kind: KindCounts,
    watch: boolean,
    arrivedMs: number,
  ): Promise<Admission> {
    const metrics = flow.metrics;
    metrics.inQueue.value++;
    kind.series.waiting.setNumerator(++kind.waiting, arrivedMs);
    const settled = await outcome;
    const nowMs = performance.now();
    metrics.inQueue.value--;
    kind.series.waiting.setNumerator(--kind.waiting, nowMs);
    const waitedSeconds = (nowMs - arrivedMs) / 1000;
    if (typeof settled === "string") {
      metrics.waitedAndRejected.observe(waitedSeconds);
      return this.#rejected(flow, settled);
    }
    metrics.waitedAndExecuted.observe(waitedSeconds);
    return this.#dispatched(flow, kind, watch, settled, nowMs);
  }

  #rejected(flow: Flow, reason: RejectReason): Admission {
    this.#metrics.rejected(flow.metrics, reason);
    return { classification: flow.classification, rejected: reason };
  }

  #dispatched(flow: Flow, kind: KindCounts, watch: boolean, seat: Seat, nowMs: number): Admission {
    const metrics = flow.metrics;
    metrics.dispatched.value++;
    if (!flow.level.exempt) metrics.executing.value++;
    kind.series.executing.setNumerator(++kind.executing, nowMs);
    return { classification: flow.classification, seat: new ExecutingRequest(flow, kind, watch, seat, nowMs) };
  }

  /** Files an admitted watch for the write work estimate (kube's RegisterWatch); the result forgets it. */
  registerWatch(scope: WatchedScope): () => void {
    return this.#watchCounts.register(scope);
  }

  /** The text of a /debug/api_priority_and_fairness/<name> dump; undefined for an unknown name. */
  dump(name: string, url: URL): string | undefined {
    const levels: DumpedLevel[] = [...this.#levels.entries()].map(([levelName, state]) => ({
      name: levelName,
      queues: state.exempt ? undefined : state.queues,
    }));
    if (name === "dump_priority_levels") return dumpPriorityLevels(levels);
    if (name === "dump_queues") return dumpQueues(levels);
    if (name === "dump_requests") return dumpRequests(levels, (url.searchParams.get("includeRequestDetails") ?? "").length > 0);
    return undefined;
  }

  /**
   * Rebuilds levels and the FlowSchema order from the informers' objects (kube's digestConfigObjects and
   * finishQueueSetReconfigsLocked), forgets every remembered classification, and re-divides the concurrency.
   */
  #digest(): void {
    const levelObjects = withMandatory(this.#priorityLevels.list(), MANDATORY_PRIORITY_LEVELS);
    const totalShares = levelObjects.filter((object) => !isExempt(object)).reduce((sum, object) => sum + sharesOf(object), 0);
    const present = new Set<string>();
    this.#nominalLimitSum = 0;
    for (const object of levelObjects) {
      const name = String(object.metadata.name);
      present.add(name);
      const exempt = isExempt(object);
      const limited = limitedOf(object);
      const limits = exempt ? undefined : levelLimits(
        this.#options.serverConcurrencyLimit,
        sharesOf(object),
        totalShares,
        optionalNumber(limited?.lendablePercent),
        optionalNumber(limited?.borrowingLimitPercent),
      );
      const queuing = exempt ? undefined : queuingOf(object);
      let state = this.#levels.get(name);
      if (state) {
        state.object = object;
        state.exempt = exempt;
        state.limits = limits;
        if (!limits) state.currentLimit = Infinity;
        state.queues.reconfigure(state.currentLimit, queuing);
      } else {
        const currentLimit = limits?.initial ?? Infinity;
        const queues = new QueueSet(currentLimit, queuing, undefined, exempt ? undefined : this.#metrics.level(name));
        state = { object, exempt, limits, currentLimit, seatDemand: newSeatDemandStats(), queues };
        this.#levels.set(name, state);
      }
      if (limits) {
        this.#nominalLimitSum += limits.nominal;
        this.#metrics.levelConfigured(name, limits);
      }
    }
    // kube's lockAndDigestConfigObjects: the read-vs-write ratios are per place in all queues, per nominal seat.
    const queuePlaces = levelObjects.reduce((sum, object) => {
      const queuing = isExempt(object) ? undefined : queuingOf(object);
      return sum + (queuing ? queuing.queues * queuing.queueLengthLimit : 0);
    }, 0);
    for (const { series } of Object.values(this.#byKind)) {
      series.waiting.setDenominator(queuePlaces);
      series.executing.setDenominator(this.#nominalLimitSum);
    }
    // A removed level's queues live on in the requests that hold them; new requests no longer reach it.
    for (const name of this.#levels.keys()) if (!present.has(name)) this.#levels.delete(name);
    const schemaObjects = withMandatory(this.#flowSchemas.list(), MANDATORY_FLOW_SCHEMAS);
    this.#classifier = new Classifier(
      schemaObjects,
      (name) => this.#levels.get(name),
      (classification, level) =>
        new Flow(
          classification,
          level,
          this.#metrics.flow(classification.priorityLevel, classification.flowSchema),
          this.#options.queueWaitLimitMs,
        ),
    );
    this.#adjustBorrowing();
    void updateDanglingConditions(
      this.#flowSchemas.list(),
      (name) => this.#priorityLevels.get("", name) !== undefined,
      this.#stores.flowSchemas,
    )
      .catch(logFailure);
  }

  /**
   * kube's updateBorrowingLocked: each limited level's seat demand over the period just ended updates its
   * statistics, and the levels' current limits are re-divided by computeConcurrencyAllocation; when that finds no
   * allocation the current limits stay.
   */
  #adjustBorrowing(): void {
    const levels = [...this.#levels.entries()].filter(([, state]) => state.limits !== undefined);
    const items = levels.map(([, state]) => {
      updateSeatDemandStats(state.seatDemand, state.queues.takeSeatDemand());
      return allocationItem(state.limits!, state.seatDemand);
    });
    let allocations: number[];
    let fairFraction = 0;
    try {
      ({ allocations, fairFraction } = allocateConcurrency(this.#nominalLimitSum, items));
    } catch (error) {
      log.error("unable to derive new concurrency limits", error);
      allocations = levels.map(([, state]) => state.currentLimit);
    }
    levels.forEach(([name, state], index) => {
      state.currentLimit = Math.round(allocations[index]!);
      state.queues.setLimit(state.currentLimit);
      const { average, stdDev, highWatermark, smoothed } = state.seatDemand;
      this.#metrics.concurrencyAdjusted(name, {
        highWatermark,
        average,
        stdDev,
        smoothed,
        target: items[index]!.target,
        currentLimit: state.currentLimit,
      });
    });
    this.#metrics.fairFraction(fairFraction);
  }
}

/** The level's shares: v1beta2's assuredConcurrencyShares (kubun stores v1beta2), v1beta3's nominalConcurrencyShares. */
function sharesOf(object: KubeObject): number {
  const limited = limitedOf(object);
  return Number(limited?.assuredConcurrencyShares ?? limited?.nominalConcurrencyShares ?? 0);
}

function optionalNumber(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}

function limitedOf(object: KubeObject): Record<string, unknown> | undefined {
  return (object.spec as { limited?: Record<string, unknown> } | undefined)?.limited;
}

function isExempt(object: KubeObject): boolean {
  return (object.spec as { type?: string } | undefined)?.type === "Exempt";
}

function queuingOf(object: KubeObject): QueuingConfig | undefined {
  const response = limitedOf(object)?.limitResponse as { type?: string; queuing?: Partial<QueuingConfig> } | undefined;
  if (response?.type !== "Queue") return undefined;
  const { queues = 64, handSize = 8, queueLengthLimit = 50 } = response.queuing ?? {};
  return { queues, handSize, queueLengthLimit };
}

/** The stored objects plus kube's mandatory ones that are missing (the filter never runs without them). */
function withMandatory(objects: KubeObject[], mandatory: readonly KubeObject[]): KubeObject[] {
  const names = new Set(objects.map((object) => object.metadata.name));
  return [...objects, ...mandatory.filter((object) => !names.has(object.metadata.name))];
}

function logFailure(error: unknown): void {
  log.error("flow control failed", error);
}
