/**
 * API Priority and Fairness (kube's apf_controller.go configController and apf_filter.go): follows the
 * FlowSchemas and PriorityLevelConfigurations, keeps kube's bootstrap objects in place, classifies each request
 * to a FlowSchema and priority level, and admits it through that level's queues. Each limited level gets
 * ceil(serverConcurrencyLimit × shares / sum of shares) seats (kube's nominal concurrency limit).
 */
import type { Registry as MetricsRegistry } from "prom-client";
import type { KubeObject } from "../api/types.ts";
import { Informer } from "../controllers/runtime/mod.ts";
import type { Catalog } from "../registry/catalog.ts";
import { nowTimestamp } from "../registry/object-meta.ts";
import type { Registry } from "../registry/registry.ts";
import { logger } from "../log/mod.ts";
import type { ResourceStore } from "../registry/store.ts";
import type { Storage } from "../storage/storage.ts";
import { CATCH_ALL, FLOWCONTROL_GROUP, FLOWCONTROL_VERSION, MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS } from "./bootstrap.ts";
import { type DumpedLevel, dumpPriorityLevels, dumpQueues, dumpRequests, type RequestDetails } from "./debug.ts";
import { ensureFlowControlBootstrap } from "./ensure.ts";
import { flowDistinguisher, type FlowSchemaSpec, inMatchingOrder, matchesFlowSchema, type RequestDigest } from "./matching.ts";
import { FlowControlMetrics } from "./metrics.ts";
import { ObjectCounts } from "./object-counts.ts";
import { QueueSet, type QueuingConfig, type RejectReason, type Seat } from "./queue-set.ts";
import { hashFlowID } from "./shuffle-sharding.ts";
import { WatchCounts, type WatchedScope } from "./watch-counts.ts";
import { estimateWork, maxSeats } from "./work-estimate.ts";

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

/** The FlowSchema and priority level a request was classified to, with their UIDs for the response headers. */
export interface Classification {
  flowSchema: string;
  flowSchemaUid: string;
  priorityLevel: string;
  priorityLevelUid: string;
  distinguisher: string;
}

export type Admission = { classification: Classification } & ({ seat: Seat } | { rejected: RejectReason });

interface LevelState {
  object: KubeObject;
  queues: QueueSet;
  exempt: boolean;
}

interface SchemaState {
  name: string;
  uid: string;
  spec: FlowSchemaSpec;
  level: LevelState;
}

const log = logger("flowcontrol");
const ENSURE_INTERVAL_MS = 60_000;

export class FlowControl {
  readonly #flowSchemas: Informer;
  readonly #priorityLevels: Informer;
  readonly #stores: { flowSchemas: ResourceStore; priorityLevels: ResourceStore };
  readonly #options: FlowControlOptions;
  readonly #metrics: FlowControlMetrics;
  readonly #objectCounts: ObjectCounts;
  readonly #watchCounts = new WatchCounts();
  readonly #levels = new Map<string, LevelState>();
  #schemas: SchemaState[] = [];
  /** Where a request no FlowSchema matches goes: kube's mandatory catch-all schema and level. */
  #fallback!: SchemaState;
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
    flowControl.#stops.push(() => clearInterval(timer));
    return flowControl;
  }

  stop(): void {
    for (const stop of this.#stops.splice(0)) stop();
    this.#flowSchemas.stop();
    this.#priorityLevels.stop();
  }

  /** kube's classification: the first matching FlowSchema whose priority level exists, else catch-all. */
  classify(request: RequestDigest): { classification: Classification; level: LevelState } {
    const schema = this.#schemas.find((candidate) => matchesFlowSchema(request, candidate.spec)) ?? this.#fallback;
    const level = schema.level;
    return {
      level,
      classification: {
        flowSchema: schema.name,
        flowSchemaUid: schema.uid,
        priorityLevel: String(level.object.metadata.name),
        priorityLevelUid: String(level.object.metadata.uid ?? ""),
        distinguisher: flowDistinguisher(request, schema.spec),
      },
    };
  }

  /**
   * Classifies the request, estimates its seats (kube's WorkEstimator) and waits for them at its level, or says why
   * it was rejected. `signal` is asked for only when the request queues: materializing a request's signal costs
   * more than classifying it.
   */
  async admit(request: RequestDigest & RequestDetails, query: URLSearchParams, signal?: () => AbortSignal): Promise<Admission> {
    const { classification, level } = this.classify(request);
    const { flowSchema, priorityLevel, distinguisher } = classification;
    const work = estimateWork({ ...request, query }, {
      objects: (groupResource) => this.#objectCounts.get(groupResource),
      interestedWatches: (estimated) => this.#watchCounts.interested(estimated),
    });
    this.#metrics.estimatedSeats(priorityLevel, flowSchema, maxSeats(work));
    const waiting = { flowSchema, distinguisher, arrivedAt: new Date(), work, details: request };
    const flowHash = () => hashFlowID(flowSchema, distinguisher);
    let outcome = level.queues.admit(waiting, flowHash, { waitLimitMs: this.#options.queueWaitLimitMs, signal });
    let waitedSeconds: number | undefined;
    if (outcome instanceof Promise) {
      this.#metrics.queued(priorityLevel, flowSchema, 1);
      outcome = await outcome;
      this.#metrics.queued(priorityLevel, flowSchema, -1);
      waitedSeconds = (Date.now() - waiting.arrivedAt.getTime()) / 1000;
    }
    if (typeof outcome === "string") {
      this.#metrics.rejected(priorityLevel, flowSchema, outcome, waitedSeconds);
      return { classification, rejected: outcome };
    }
    const seat = outcome;
    let released = false;
    const finished = this.#metrics.dispatched(priorityLevel, flowSchema, waitedSeconds, request.verb === "watch");
    return {
      classification,
      seat: {
        release: () => {
          if (released) return;
          released = true;
          finished();
          seat.release();
        },
      },
    };
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

  /** Rebuilds levels and the FlowSchema order from the informers' objects (kube's digestConfigObjects). */
  #digest(): void {
    const levelObjects = withMandatory(this.#priorityLevels.list(), MANDATORY_PRIORITY_LEVELS);
    const sharesOf = (object: KubeObject) => Number(limitedOf(object)?.assuredConcurrencyShares ?? 0);
    const totalShares = levelObjects.filter((object) => !isExempt(object)).reduce((sum, object) => sum + sharesOf(object), 0);
    const present = new Set<string>();
    for (const object of levelObjects) {
      const name = String(object.metadata.name);
      present.add(name);
      const exempt = isExempt(object);
      const limit = exempt ? Infinity : Math.ceil((this.#options.serverConcurrencyLimit * sharesOf(object)) / Math.max(totalShares, 1));
      const queuing = exempt ? undefined : queuingOf(object);
      const state = this.#levels.get(name);
      if (state) {
        state.object = object;
        state.exempt = exempt;
        state.queues.reconfigure(limit, queuing);
      } else {
        this.#levels.set(name, { object, exempt, queues: new QueueSet(limit, queuing) });
      }
      if (!exempt) this.#metrics.concurrencyLimit(name, limit);
    }
    // A removed level's queues live on in the requests that hold them; new requests no longer reach it.
    for (const name of this.#levels.keys()) if (!present.has(name)) this.#levels.delete(name);
    const schemaObjects = withMandatory(this.#flowSchemas.list(), MANDATORY_FLOW_SCHEMAS);
    this.#schemas = inMatchingOrder(schemaObjects).flatMap((object) => {
      const spec = (object.spec ?? {}) as FlowSchemaSpec;
      const level = this.#levels.get(spec.priorityLevelConfiguration?.name ?? "");
      return level ? [{ name: String(object.metadata.name), uid: String(object.metadata.uid ?? ""), spec, level }] : [];
    });
    const catchAll = MANDATORY_FLOW_SCHEMAS.find((object) => object.metadata.name === CATCH_ALL)!;
    this.#fallback = { name: CATCH_ALL, uid: "", spec: catchAll.spec as FlowSchemaSpec, level: this.#levels.get(CATCH_ALL)! };
    void this.#updateDanglingConditions().catch(logFailure);
  }

  /** kube's FlowSchema status: a Dangling condition saying whether the referenced priority level exists. */
  async #updateDanglingConditions(): Promise<void> {
    for (const schema of this.#flowSchemas.list()) {
      const levelName = String((schema.spec as FlowSchemaSpec | undefined)?.priorityLevelConfiguration?.name ?? "");
      const dangling = this.#priorityLevels.get("", levelName) === undefined;
      const wanted = dangling
        ? {
          type: "Dangling",
          status: "True",
          reason: "NotFound",
          message: `This FlowSchema references the PriorityLevelConfiguration object named "${levelName}" but there is no such object`,
        }
        : {
          type: "Dangling",
          status: "False",
          reason: "Found",
          message: `This FlowSchema references the PriorityLevelConfiguration object named "${levelName}" and it exists`,
        };
      const conditions = (schema.status as { conditions?: Record<string, unknown>[] } | undefined)?.conditions ?? [];
      const current = conditions.find((condition) => condition.type === "Dangling");
      if (current && current.status === wanted.status && current.reason === wanted.reason && current.message === wanted.message) continue;
      await this.#stores.flowSchemas.update("", String(schema.metadata.name), (latest) => {
        if (!latest) throw new Error("FlowSchema gone");
        const others = ((latest.status as { conditions?: Record<string, unknown>[] } | undefined)?.conditions ?? [])
          .filter((condition) => condition.type !== "Dangling");
        return {
          ...latest,
          status: { ...latest.status as object, conditions: [...others, { ...wanted, lastTransitionTime: nowTimestamp() }] },
        };
      }, { subresource: "status" }).catch(() => {
        // Deleted or changed meanwhile: the informer's next event brings another round.
      });
    }
  }
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
