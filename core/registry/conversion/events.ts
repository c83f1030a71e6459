/**
 * events.k8s.io/v1 Event ↔ core/v1 Event, its stored form: kube serves both as external versions of one internal
 * core.Event (pkg/apis/events/v1/conversion.go). The fields are the same but for their names (note ↔ message,
 * regarding ↔ involvedObject, deprecated* ↔ the legacy source, timestamps and count, reportingController ↔
 * reportingComponent), so each direction renames the fields it knows, in its target's Go struct order, and drops
 * the rest, as a conversion through Go structs does. Every renamed string and count is `omitempty` on both sides but
 * core/v1's reportingComponent and reportingInstance, so an empty one is left out (mod.ts writes those two back as
 * the Go zero values they are).
 */
import type { KubeObject } from "../../api/types.ts";

/** [events.k8s.io/v1 name, core/v1 name], in events.k8s.io/v1's struct order (k8s.io/api/events/v1 Event). */
const EVENTS_V1_TO_CORE: readonly (readonly [string, string])[] = [
  ["eventTime", "eventTime"],
  ["series", "series"],
  ["reportingController", "reportingComponent"],
  ["reportingInstance", "reportingInstance"],
  ["action", "action"],
  ["reason", "reason"],
  ["regarding", "involvedObject"],
  ["related", "related"],
  ["note", "message"],
  ["type", "type"],
  ["deprecatedSource", "source"],
  ["deprecatedFirstTimestamp", "firstTimestamp"],
  ["deprecatedLastTimestamp", "lastTimestamp"],
  ["deprecatedCount", "count"],
];

/** core/v1's struct order (k8s.io/api/core/v1 Event). */
const CORE_ORDER = [
  "involvedObject",
  "reason",
  "message",
  "source",
  "firstTimestamp",
  "lastTimestamp",
  "count",
  "type",
  "eventTime",
  "series",
  "action",
  "related",
  "reportingComponent",
  "reportingInstance",
];

const CORE_NAME_OF = new Map(EVENTS_V1_TO_CORE);
const EVENTS_V1_NAME_OF = new Map(EVENTS_V1_TO_CORE.map(([v1, core]) => [core, v1]));

function renamed(obj: KubeObject, apiVersion: string, order: readonly string[], nameOf: ReadonlyMap<string, string>): KubeObject {
  const byTarget = new Map<string, unknown>();
  for (const [field, value] of Object.entries(obj)) {
    const target = nameOf.get(field);
    if (target !== undefined && value !== undefined && value !== "" && value !== 0) byTarget.set(target, value);
  }
  const out: KubeObject = { apiVersion, kind: "Event", metadata: obj.metadata };
  for (const field of order) if (byTarget.has(field)) out[field] = byTarget.get(field);
  return out;
}

/** kube's Convert_v1_Event_To_core_Event followed by core/v1's conversion out of core.Event. */
export function coreEventFromEventsV1(event: KubeObject): KubeObject {
  return renamed(event, "v1", CORE_ORDER, CORE_NAME_OF);
}

/** core/v1's conversion into core.Event followed by kube's Convert_core_Event_To_v1_Event. */
export function eventsV1FromCoreEvent(event: KubeObject): KubeObject {
  return renamed(event, "events.k8s.io/v1", EVENTS_V1_TO_CORE.map(([v1]) => v1), EVENTS_V1_NAME_OF);
}
