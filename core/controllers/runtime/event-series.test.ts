import { expect, test } from "bun:test";
import { EventSeries } from "./event-series.ts";
import { newReportedEvent } from "./events.ts";

const pod = { apiVersion: "v1", kind: "Pod", metadata: { name: "p", namespace: "ns", uid: "u" } };
const failed = (message: string) =>
  newReportedEvent(pod, { type: "Warning", reason: "FailedScheduling", message, component: "default-scheduler", action: "Scheduling" });

test("event_broadcaster recordToSink: the 2nd isomorphic Event (any note) patches series count 2 onto the 1st, later ones only count", () => {
  let now = 0;
  const series = new EventSeries(() => now);
  const first = failed("0/1 nodes are available: 1 Insufficient cpu.");
  expect(series.observe(first)).toEqual({ create: first });
  now += 1000;
  expect(series.observe(failed("0/2 nodes are available: 2 Insufficient cpu."))).toEqual({
    patch: { namespace: "ns", name: String(first.metadata.name), series: { count: 2, lastObservedTime: "1970-01-01T00:00:01.000000Z" } },
  });
  expect(series.observe(failed("again"))).toEqual({});
  // Another reason is not isomorphic.
  const scheduled = newReportedEvent(pod, {
    type: "Normal",
    reason: "Scheduled",
    message: "m",
    component: "default-scheduler",
    action: "Binding",
  });
  expect(series.observe(scheduled)).toEqual({ create: scheduled });
});

test("finishSeries: an isomorphic Event 6 minutes after the last one starts a new Event", () => {
  let now = 0;
  const series = new EventSeries(() => now);
  series.observe(failed("a"));
  now += 6 * 60_000 + 1;
  const later = failed("a");
  expect(series.observe(later)).toEqual({ create: later });
});
