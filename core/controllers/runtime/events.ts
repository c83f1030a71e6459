/**
 * A core/v1 Event about an object, shaped as client-go's legacy EventRecorder makes it (record/event.go
 * makeEvent and generateEvent): named `<object>.<unix nanos in hex>` in the object's namespace (default for
 * cluster-scoped objects), with the reporting component as source, count 1 and both timestamps now.
 */
import { randomInt } from "node:crypto";
import type { KubeObject } from "../../api/types.ts";
import { nowTimestamp } from "../../registry/object-meta.ts";

export interface EventNote {
  type: "Normal" | "Warning";
  reason: string;
  message: string;
  /** The controller's component name, e.g. "replicaset-controller". */
  component: string;
}

export function newEvent(involved: KubeObject, note: EventNote): KubeObject {
  const namespace = involved.metadata.namespace || "default";
  const now = nowTimestamp();
  // Nanosecond clock: milliseconds plus random low digits, so two events in one millisecond get two names.
  const nanos = BigInt(Date.now()) * 1_000_000n + BigInt(randomInt(1_000_000));
  return {
    apiVersion: "v1",
    kind: "Event",
    metadata: { name: `${involved.metadata.name}.${nanos.toString(16)}`, namespace },
    involvedObject: {
      kind: involved.kind,
      namespace: involved.metadata.namespace,
      name: involved.metadata.name,
      uid: involved.metadata.uid,
      apiVersion: involved.apiVersion,
      resourceVersion: involved.metadata.resourceVersion,
    },
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
