/**
 * Events as kube's printEvent shows them, for core/v1 Events and events.k8s.io/v1 Events alike (kube serves
 * both from one store, so both print the same columns).
 */
import type { KubeObject } from "../types.ts";
import { column, definePrinter, NAME_COLUMN, wideColumn } from "./_printer.ts";
import { parseTimestamp, timeSince } from "./duration.ts";

interface ObjectReference {
  kind?: string;
  name?: string;
  fieldPath?: string;
}

interface EventSource {
  component?: string;
  host?: string;
}

interface EventSeries {
  count?: number;
  lastObservedTime?: string;
}

interface CoreEvent extends KubeObject {
  involvedObject?: ObjectReference;
  regarding?: ObjectReference;
  reason?: string;
  message?: string;
  note?: string;
  type?: string;
  source?: EventSource;
  deprecatedSource?: EventSource;
  firstTimestamp?: string | null;
  deprecatedFirstTimestamp?: string | null;
  lastTimestamp?: string | null;
  deprecatedLastTimestamp?: string | null;
  count?: number;
  deprecatedCount?: number;
  eventTime?: string | null;
  series?: EventSeries | null;
  reportingComponent?: string;
  reportingController?: string;
  reportingInstance?: string;
}

/** The fields printEvent reads, from either API version's field names. */
function eventFields(event: CoreEvent) {
  return {
    regarding: event.involvedObject ?? event.regarding ?? {},
    message: event.message ?? event.note ?? "",
    source: event.source ?? event.deprecatedSource ?? {},
    firstTimestamp: event.firstTimestamp ?? event.deprecatedFirstTimestamp,
    lastTimestamp: event.lastTimestamp ?? event.deprecatedLastTimestamp,
    count: event.count ?? event.deprecatedCount ?? 0,
    reportingController: event.reportingComponent ?? event.reportingController ?? "",
    reportingInstance: event.reportingInstance ?? "",
  };
}

/** formatEventSource: component (or reporting controller), then ", host" (or reporting instance) when known. */
function sourceText(source: EventSource, controller: string, instance: string): string {
  const component = source.component || controller;
  const host = source.host || instance;
  return host ? `${component}, ${host}` : component;
}

export const eventPrinter = definePrinter<CoreEvent>(
  [
    column("Last Seen", "Time since the event was last seen"),
    column("Type", "Normal or Warning"),
    column("Reason", "Why the event happened"),
    column("Object", "The object the event is about"),
    wideColumn("Subobject", "The part of the object the event is about"),
    wideColumn("Source", "The component that reported the event"),
    column("Message", "What happened"),
    wideColumn("First Seen", "Time since the event was first seen"),
    wideColumn("Count", "How often the event occurred"),
    { ...NAME_COLUMN, priority: 1 },
  ],
  (event, now) => {
    const fields = eventFields(event);
    const firstSeen = timeSince(parseTimestamp(fields.firstTimestamp) === undefined ? event.eventTime : fields.firstTimestamp, now);
    let lastSeen = parseTimestamp(fields.lastTimestamp) === undefined ? firstSeen : timeSince(fields.lastTimestamp, now);
    let count = fields.count;
    if (event.series) {
      lastSeen = timeSince(event.series.lastObservedTime, now);
      count = event.series.count ?? 0;
    } else if (count === 0) {
      count = 1; // singleton events of the new API carry no count
    }
    const { kind = "", name } = fields.regarding;
    return [
      lastSeen,
      event.type ?? "",
      event.reason ?? "",
      name ? `${kind.toLowerCase()}/${name}` : kind.toLowerCase(),
      fields.regarding.fieldPath ?? "",
      sourceText(fields.source, fields.reportingController, fields.reportingInstance),
      fields.message.trim(),
      firstSeen,
      count,
      event.metadata.name,
    ];
  },
);
