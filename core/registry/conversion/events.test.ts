import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { coreEventFromEventsV1, eventsV1FromCoreEvent } from "./events.ts";

const metadata = { name: "web.1", namespace: "default", resourceVersion: "7" };
const pod = { kind: "Pod", namespace: "default", name: "web", uid: "u-1" };
const node = { kind: "Node", name: "n1" };
const series = { count: 3, lastObservedTime: "2026-01-01T00:00:02.000000Z" };

/** Every field of events.k8s.io/v1 Event, in its struct order. */
const EVENTS_V1: KubeObject = {
  apiVersion: "events.k8s.io/v1",
  kind: "Event",
  metadata,
  eventTime: "2026-01-01T00:00:00.000000Z",
  series,
  reportingController: "example.com/ctl",
  reportingInstance: "ctl-0",
  action: "Scheduling",
  reason: "Scheduled",
  regarding: pod,
  related: node,
  note: "assigned",
  type: "Normal",
  deprecatedSource: { component: "kubelet", host: "n1" },
  deprecatedFirstTimestamp: "2026-01-01T00:00:00Z",
  deprecatedLastTimestamp: "2026-01-01T00:00:01Z",
  deprecatedCount: 2,
};

/** The same Event as core/v1, in its struct order. */
const CORE: KubeObject = {
  apiVersion: "v1",
  kind: "Event",
  metadata,
  involvedObject: pod,
  reason: "Scheduled",
  message: "assigned",
  source: { component: "kubelet", host: "n1" },
  firstTimestamp: "2026-01-01T00:00:00Z",
  lastTimestamp: "2026-01-01T00:00:01Z",
  count: 2,
  type: "Normal",
  eventTime: "2026-01-01T00:00:00.000000Z",
  series,
  action: "Scheduling",
  related: node,
  reportingComponent: "example.com/ctl",
  reportingInstance: "ctl-0",
};

test("Convert_v1_Event_To_core_Event: regarding, note, deprecated* and reportingController take core's names", () => {
  const core = coreEventFromEventsV1(EVENTS_V1);
  expect(core).toEqual(CORE);
  expect(Object.keys(core)).toEqual(Object.keys(CORE));
});

test("Convert_core_Event_To_v1_Event: involvedObject, message, source, timestamps, count and reportingComponent take events.k8s.io's names", () => {
  const modern = eventsV1FromCoreEvent(CORE);
  expect(modern).toEqual(EVENTS_V1);
  expect(Object.keys(modern)).toEqual(Object.keys(EVENTS_V1));
});

test("Convert_core_Event_To_v1_Event: a legacy Event's absent fields stay absent, and the round trip gives it back", () => {
  const legacy: KubeObject = { apiVersion: "v1", kind: "Event", metadata, involvedObject: pod, reason: "Pulled", message: "done" };
  const modern = eventsV1FromCoreEvent(legacy);
  expect(modern).toEqual({ apiVersion: "events.k8s.io/v1", kind: "Event", metadata, reason: "Pulled", regarding: pod, note: "done" });
  expect(coreEventFromEventsV1(modern)).toEqual(legacy);
});

test("Convert_v1_Event_To_core_Event: a field neither version has is dropped, as a conversion through Go structs drops it", () => {
  expect(coreEventFromEventsV1({ ...EVENTS_V1, message: "core's name, not events.k8s.io's", extra: 1 })).toEqual(CORE);
});

test("an empty string or zero count is left out, as the omitempty fields they land in are (Convert_core_Event_To_v1_Event)", () => {
  const legacy: KubeObject = {
    apiVersion: "v1",
    kind: "Event",
    metadata,
    involvedObject: pod,
    reason: "Started",
    message: "",
    count: 0,
    eventTime: null,
    reportingComponent: "",
    reportingInstance: "",
  };
  expect(eventsV1FromCoreEvent(legacy)).toEqual({
    apiVersion: "events.k8s.io/v1",
    kind: "Event",
    metadata,
    eventTime: null,
    reason: "Started",
    regarding: pod,
  });
});
