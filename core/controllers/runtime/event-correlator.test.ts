import { expect, test } from "bun:test";
import { EventCorrelator } from "./event-correlator.ts";
import { newEvent } from "./events.ts";

const rs = { apiVersion: "apps/v1", kind: "ReplicaSet", metadata: { name: "web", namespace: "ns", uid: "u1" } };
const note = (message: string, reason = "FailedCreate") =>
  newEvent(rs, { type: "Warning", reason, message, component: "replicaset-controller" });

/** What the server answers to a write of `event`: the same Event with a resourceVersion. */
const stored = (event: ReturnType<typeof note>, rv: string) => ({ ...event, metadata: { ...event.metadata, resourceVersion: rv } });

test("eventObserve: a repeated Event patches count, lastTimestamp and message of the one recorded first", () => {
  const correlator = new EventCorrelator(() => 0);
  const first = correlator.correlate(note("Error creating: no"))!;
  expect(first.repeat).toBeUndefined();
  correlator.written(stored(first.event, "7"));
  const second = correlator.correlate(note("Error creating: no"))!;
  expect(second.event.metadata).toMatchObject({ name: first.event.metadata.name, resourceVersion: "7" });
  expect(second.repeat).toEqual({ count: 2, lastTimestamp: String(second.event.lastTimestamp), message: "Error creating: no" });
  correlator.written(stored({ ...second.event, count: 2 }, "8"));
  expect(correlator.correlate(note("Error creating: no"))!.repeat?.count).toBe(3);
  // Another reason is another Event.
  expect(correlator.correlate(note("Error creating: no", "FailedDelete"))!.repeat).toBeUndefined();
});

test("EventAggregatorByReasonFunc: the 10th distinct message within 10 minutes becomes '(combined from similar events): ...', then repeats of it count", () => {
  let now = 0;
  const correlator = new EventCorrelator(() => now);
  for (let i = 1; i <= 9; i++) {
    expect(correlator.correlate(note(`Error creating: pod-${i}`))!.event.message).toBe(`Error creating: pod-${i}`);
  }
  const combined = correlator.correlate(note("Error creating: pod-10"))!;
  expect(combined.event.message).toBe("(combined from similar events): Error creating: pod-10");
  expect(combined.repeat).toBeUndefined();
  const next = correlator.correlate(note("Error creating: pod-11"))!;
  expect(next.event.metadata.name).toBe(combined.event.metadata.name);
  expect(next.repeat).toMatchObject({ count: 2, message: "(combined from similar events): Error creating: pod-11" });
  // Past the interval, a message stands alone again.
  now += 600_001;
  expect(correlator.correlate(note("Error creating: pod-12"))!.event.message).toBe("Error creating: pod-12");
});

test("EventSourceObjectSpamFilter inside EventCorrelate: past 25 Events about one object from one source, the rest are dropped", () => {
  const correlator = new EventCorrelator(() => 0);
  const written = Array.from({ length: 30 }, (_, i) => correlator.correlate(note("same", `Reason${i}`))).filter(Boolean);
  expect(written).toHaveLength(25);
});
