/**
 * client-go's EventCorrelator (tools/record/events_cache.go EventCorrelate), which every legacy EventRecorder
 * passes its Events through before writing them:
 * - EventAggregator (EventAggregatorByReasonFunc): once 10 Events of one source, object, type and reason with
 *   different messages are seen within 10 minutes, further ones become one Event whose message is
 *   "(combined from similar events): <message>" (EventAggregatorByReasonMessageFunc);
 * - eventLogger.eventObserve: an Event seen before (same source, object, type, reason and message) is not created
 *   again; the Event recorded then gets its count incremented, with lastTimestamp and message, by a PATCH;
 * - EventSourceObjectSpamFilter (event-spam-filter.ts): what exceeds the per source+object token bucket is dropped.
 * Each cache is an LRU of 4096 keys (maxLruCacheEntries).
 */
import type { KubeObject } from "../../api/types.ts";
import { forgetOldest } from "../../runtime/bounded.ts";
import { EventSpamFilter } from "./event-spam-filter.ts";

const AGGREGATE_MAX_EVENTS = 10;
const AGGREGATE_INTERVAL_MS = 600_000;
const CACHE_SIZE = 4096;
const COMBINED_PREFIX = "(combined from similar events): ";

/** What kube's strategic merge patch of a repeated Event carries. */
export interface EventRepeat {
  count: number;
  lastTimestamp: string;
  message: string;
}

export interface CorrelatedEvent {
  /** The Event to write: a new one to create, or (with `repeat`) the one recorded before, by name. */
  event: KubeObject;
  repeat?: EventRepeat;
}

interface Observation {
  count: number;
  firstTimestamp: unknown;
  name: string;
  resourceVersion?: string;
}

interface Aggregate {
  messages: Set<string>;
  at: number;
}

type EventFields = {
  source?: { component?: string; host?: string };
  involvedObject?: Record<string, string | undefined>;
};

function fields(event: KubeObject): Required<EventFields> {
  const { source, involvedObject } = event as KubeObject & EventFields;
  return { source: source ?? {}, involvedObject: involvedObject ?? {} };
}

/** getEventKey: the whole Event, message included. */
function eventKey(event: KubeObject): string {
  const { source, involvedObject: o } = fields(event);
  return [
    source.component,
    source.host,
    o.kind,
    o.namespace,
    o.name,
    o.fieldPath,
    o.uid,
    o.apiVersion,
    event.type,
    event.reason,
    event.message,
  ]
    .join("");
}

/** EventAggregatorByReasonFunc's aggregate key: the Event without its message. */
function aggregateKey(event: KubeObject): string {
  const { source, involvedObject: o } = fields(event);
  return [
    source.component,
    source.host,
    o.kind,
    o.namespace,
    o.name,
    o.uid,
    o.apiVersion,
    event.type,
    event.reason,
    event.reportingComponent,
    event.reportingInstance,
  ].join("");
}

function timestamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  cache.delete(key);
  cache.set(key, value);
  forgetOldest(cache, CACHE_SIZE);
}

export class EventCorrelator {
  readonly #aggregates = new Map<string, Aggregate>();
  readonly #observed = new Map<string, Observation>();
  readonly #spam: EventSpamFilter;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.#spam = new EventSpamFilter(now);
  }

  /** The write an Event amounts to, or null when the spam filter drops it. */
  correlate(event: KubeObject): CorrelatedEvent | null {
    const [aggregated, key] = this.#aggregate(event);
    const observed = this.#observe(aggregated, key);
    return this.#spam.allows(observed.event) ? observed : null;
  }

  /** The server's answer to a write (UpdateState): a later repeat patches the Event of that name. */
  written(event: KubeObject): void {
    remember(this.#observed, eventKey(event), {
      count: Number(event.count ?? 1),
      firstTimestamp: event.firstTimestamp,
      name: String(event.metadata.name),
      resourceVersion: event.metadata.resourceVersion,
    });
  }

  /** EventAggregator.EventAggregate: the Event itself under its own key, or the combined Event under the aggregate key. */
  #aggregate(event: KubeObject): [KubeObject, string] {
    const now = this.#now();
    const key = aggregateKey(event);
    let record = this.#aggregates.get(key);
    if (!record || now - record.at > AGGREGATE_INTERVAL_MS) record = { messages: new Set(), at: now };
    record.messages.add(String(event.message ?? ""));
    record.at = now;
    remember(this.#aggregates, key, record);
    if (record.messages.size < AGGREGATE_MAX_EVENTS) return [event, eventKey(event)];
    // The set stays below the threshold, so each further distinct message is combined as well.
    record.messages.delete(record.messages.values().next().value!);
    const nanos = BigInt(now) * 1_000_000n;
    const combined: KubeObject = {
      ...event,
      metadata: { name: `${(event.involvedObject as { name?: string }).name}.${nanos.toString(16)}`, namespace: event.metadata.namespace },
      message: COMBINED_PREFIX + String(event.message ?? ""),
      firstTimestamp: timestamp(now),
      lastTimestamp: timestamp(now),
      count: 1,
    };
    return [combined, key];
  }

  /** eventLogger.eventObserve: a repeat of an observed Event becomes a patch of that Event. */
  #observe(event: KubeObject, key: string): CorrelatedEvent {
    const last = this.#observed.get(key);
    let result: CorrelatedEvent = { event };
    if (last && last.count > 0) {
      const count = last.count + 1;
      const repeated: KubeObject = {
        ...event,
        metadata: { ...event.metadata, name: last.name, resourceVersion: last.resourceVersion },
        firstTimestamp: last.firstTimestamp,
        count,
      };
      result = { event: repeated, repeat: { count, lastTimestamp: String(event.lastTimestamp), message: String(event.message ?? "") } };
    }
    const written = result.event;
    remember(this.#observed, key, {
      count: Number(written.count ?? 1),
      firstTimestamp: written.firstTimestamp,
      name: String(written.metadata.name),
      resourceVersion: written.metadata.resourceVersion,
    });
    return result;
  }
}
