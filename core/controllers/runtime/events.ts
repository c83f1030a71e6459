/**
 * Events about an object. newEvent: a core/v1 Event shaped as client-go's legacy EventRecorder makes it (record/event.go
 * makeEvent and generateEvent): named `<object>.<unix nanos in hex>` in the object's namespace (default for
 * cluster-scoped objects), with the reporting component as source, count 1 and both timestamps now.
 */
import { randomInt } from "node:crypto";
import { hostname } from "node:os";
import type { KubeObject } from "../../api/types.ts";
import { nowTimestamp } from "../../registry/object-meta.ts";
import { microTime } from "./_lease-record.ts";

export interface EventNote {
  type: "Normal" | "Warning";
  reason: string;
  message: string;
  /** The controller's component name, e.g. "replicaset-controller". */
  component: string;
  /** What was done (events.k8s.io's action); given by components recording through the events.k8s.io recorder. */
  action?: string;
}

export function newEvent(involved: KubeObject, note: EventNote): KubeObject {
  const now = nowTimestamp();
  return {
    apiVersion: "v1",
    kind: "Event",
    metadata: eventMetadata(involved),
    involvedObject: objectReference(involved),
    reason: note.reason,
    message: note.message,
    source: { component: note.component },
    firstTimestamp: now,
    lastTimestamp: now,
    count: 1,
    type: note.type,
    reportingComponent: "",
    reportingInstance: "",
  };
}

/**
 * An Event as client-go's events.k8s.io recorder makes it (tools/events/event_recorder.go makeEvent), seen as core/v1
 * (both groups store one Event): reportingController is the component and reportingInstance "<component>-<host>",
 * with an action and an eventTime instead of source, count and first/last timestamps. kube-scheduler records so.
 */
export function newReportedEvent(involved: KubeObject, note: EventNote): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Event",
    metadata: eventMetadata(involved),
    involvedObject: objectReference(involved),
    reason: note.reason,
    message: note.message,
    source: {},
    firstTimestamp: null,
    lastTimestamp: null,
    type: note.type,
    eventTime: microTime(new Date()),
    action: note.action,
    reportingComponent: note.component,
    reportingInstance: `${note.component}-${hostname()}`,
  };
}

/** `<object>.<unix nanos in hex>` in the object's namespace (default for a cluster-scoped object). */
function eventMetadata(involved: KubeObject): KubeObject["metadata"] {
  // Nanosecond clock: milliseconds plus random low digits, so two events in one millisecond get two names.
  const nanos = BigInt(Date.now()) * 1_000_000n + BigInt(randomInt(1_000_000));
  return { name: `${involved.metadata.name}.${nanos.toString(16)}`, namespace: involved.metadata.namespace || "default" };
}

function objectReference(involved: KubeObject): Record<string, unknown> {
  return {
    kind: involved.kind,
    namespace: involved.metadata.namespace,
    name: involved.metadata.name,
    uid: involved.metadata.uid,
    apiVersion: involved.apiVersion,
    resourceVersion: involved.metadata.resourceVersion,
  };
}
