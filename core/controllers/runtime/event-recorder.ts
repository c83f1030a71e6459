/**
 * A controller's EventRecorder, as client-go's legacy one (tools/record/event.go) works: record() returns at once
 * and the Event is written later, one at a time in order, by the controller's own client (so its authorization and
 * admission apply), after the EventCorrelator (event-correlator.ts) decided whether it is a new Event, a repeat
 * patched onto the one recorded before (recordEvent: PATCH, falling back to a create when that Event is gone), or
 * spam. At most 1000 Events wait (the broadcaster's maxQueuedEvents); more are dropped, as ActionOrDrop does.
 * A refused write is logged and not retried (recordEvent gives up on a StatusError); it never reaches the
 * controller.
 */
import { isAlreadyExists, isNotFound, newNotFound } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { logger } from "../../log/mod.ts";
import { isNamespaceTerminating } from "../_races.ts";
import type { WriteOptions } from "../../registry/store-options.ts";
import type { ResourceStore } from "../../registry/store.ts";
import { EventCorrelator, type EventRepeat } from "./event-correlator.ts";
import { type EventNote, newEvent, newReportedEvent } from "./events.ts";
import { EventSeries } from "./event-series.ts";

const log = logger("events");
const MAX_QUEUED_EVENTS = 1000;
const EVENTS = { group: "", resource: "events" };

export interface EventRecorderOptions {
  /** The store core/v1 Events are written to, as the controller's user. */
  events: ResourceStore;
  write?: WriteOptions;
  now?: () => number;
  /** The controller's stop: Events not yet written are dropped (eventBroadcaster.Shutdown when a controller's Run returns). */
  signal?: AbortSignal;
}

export class EventRecorder {
  readonly #correlator: EventCorrelator;
  readonly #series: EventSeries;
  readonly #events: ResourceStore;
  readonly #write: WriteOptions;
  readonly #queue: (() => Promise<void>)[] = [];
  readonly #signal?: AbortSignal;
  #draining: Promise<void> | null = null;

  constructor(options: EventRecorderOptions) {
    this.#events = options.events;
    this.#write = options.write ?? {};
    this.#correlator = new EventCorrelator(options.now);
    this.#series = new EventSeries(options.now);
    this.#signal = options.signal;
    this.#signal?.addEventListener("abort", () => this.#queue.splice(0), { once: true });
  }

  /**
   * Records `note` about `involved` (EventRecorder.Eventf), without waiting for the write. A note with an action
   * is an events.k8s.io recorder's Event (newReportedEvent), counted in series (event-series.ts).
   */
  record(involved: KubeObject, note: EventNote): void {
    if (note.action !== undefined) {
      const event = newReportedEvent(involved, note);
      this.#enqueue(() => this.#recordSeries(event));
      return;
    }
    const event = newEvent(involved, note);
    this.#enqueue(() => this.#recordToSink(event));
  }

  /** Resolves once every Event recorded so far is written or dropped (tests and shutdown use it). */
  async flushed(): Promise<void> {
    while (this.#draining) await this.#draining;
  }

  #enqueue(task: () => Promise<void>): void {
    if (this.#queue.length >= MAX_QUEUED_EVENTS || this.#signal?.aborted) return;
    this.#queue.push(task);
    this.#draining ??= this.#drain();
  }

  async #drain(): Promise<void> {
    // The caller's turn ends before any write starts, as kube's recorder hands Events to the broadcaster's goroutine.
    await null;
    for (let task = this.#queue.shift(); task; task = this.#queue.shift()) {
      await task().catch(logRejection);
    }
    this.#draining = null;
  }

  /** recordToSink and recordEvent. */
  async #recordToSink(event: KubeObject): Promise<void> {
    const correlated = this.#correlator.correlate(event);
    if (!correlated) return;
    const { event: next, repeat } = correlated;
    const namespace = String(next.metadata.namespace);
    let written: KubeObject | undefined;
    if (repeat) {
      written = await this.#patch(namespace, String(next.metadata.name), repeat).catch((error) => {
        if (isNotFound(error)) return undefined;
        throw error;
      });
    }
    if (!written) {
      const { resourceVersion: _, ...metadata } = next.metadata;
      written = await this.#events.create(namespace, { ...next, metadata }, this.#write);
    }
    this.#correlator.written(written);
  }

  /** events.k8s.io recordEvent: a series is patched onto its first Event, created anew when that one is gone. */
  async #recordSeries(event: KubeObject): Promise<void> {
    const { create, patch } = this.#series.observe(event);
    if (patch) {
      const patched = await this.#events.update(patch.namespace, patch.name, (current) => {
        if (!current) throw newNotFound(EVENTS, patch.name);
        return { ...current, series: patch.series };
      }, { ...this.#write, patch: true }).catch((error) => {
        if (isNotFound(error)) return undefined;
        throw error;
      });
      if (patched) return;
    }
    const fresh = create ?? (patch && { ...event, series: patch.series });
    if (fresh) await this.#events.create(String(fresh.metadata.namespace), fresh, this.#write);
  }

  /** The strategic merge patch recordEvent sends: count, lastTimestamp and message of the Event recorded before. */
  async #patch(namespace: string, name: string, repeat: EventRepeat): Promise<KubeObject> {
    const { object } = await this.#events.update(namespace, name, (current) => {
      if (!current) throw newNotFound(EVENTS, name);
      return { ...current, ...repeat };
    }, { ...this.#write, patch: true });
    return object;
  }
}

/** recordEvent's log line: an Event that exists already or whose namespace is terminating is routine. */
function logRejection(error: unknown): void {
  if (isAlreadyExists(error) || isNamespaceTerminating(error)) {
    log.v(5).info("Server rejected event (will not retry!)", { err: String(error) });
  } else log.error("Server rejected event (will not retry!)", error);
}
