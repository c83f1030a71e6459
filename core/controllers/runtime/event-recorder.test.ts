import { expect, test } from "bun:test";
import { newForbidden } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import type { ResourceStore } from "../../registry/store.ts";
import { EventRecorder } from "./event-recorder.ts";

const pod = { apiVersion: "v1", kind: "Pod", metadata: { name: "p", namespace: "ns", uid: "u" } };
const note = { type: "Normal" as const, reason: "Scheduled", message: "m", component: "c" };

/** An Event store keeping what it is given, or refusing every write. */
function fakeEvents(refuse = false) {
  const saved = new Map<string, KubeObject>();
  let rv = 0;
  const store = {
    create(_: string, event: KubeObject) {
      if (refuse) return Promise.reject(newForbidden("events is forbidden"));
      const object = { ...event, metadata: { ...event.metadata, resourceVersion: String(++rv) } };
      saved.set(String(event.metadata.name), object);
      return Promise.resolve(object);
    },
    update(_: string, name: string, change: (current: KubeObject | null) => KubeObject) {
      const object = { ...change(saved.get(name) ?? null), metadata: { ...saved.get(name)!.metadata, resourceVersion: String(++rv) } };
      saved.set(name, object);
      return Promise.resolve({ object, created: false });
    },
  };
  return { saved, store: store as unknown as ResourceStore };
}

test("recordToSink: record() returns before the write; a repeat is written as a patch of the Event's count", async () => {
  const { saved, store } = fakeEvents();
  const recorder = new EventRecorder({ events: store });
  recorder.record(pod, note);
  expect(saved.size).toBe(0);
  recorder.record(pod, note);
  await recorder.flushed();
  expect([...saved.values()].map((e) => e.count)).toEqual([2]);
});

test("recordEvent: a refused write never reaches the caller, and the Events after it are still tried", async () => {
  const { store } = fakeEvents(true);
  let tried = 0;
  const counting = {
    ...store,
    create: (...args: Parameters<ResourceStore["create"]>) => (tried++, store.create(...args)),
  } as ResourceStore;
  const recorder = new EventRecorder({ events: counting });
  expect(() => recorder.record(pod, note)).not.toThrow();
  recorder.record(pod, { ...note, reason: "Other" });
  await recorder.flushed();
  expect(tried).toBe(2);
});

test("newReportedEvent: a note with an action is written in the events.k8s.io recorder's shape", async () => {
  const { saved, store } = fakeEvents();
  const recorder = new EventRecorder({ events: store });
  recorder.record(pod, { ...note, component: "default-scheduler", action: "Binding" });
  await recorder.flushed();
  const [event] = saved.values();
  expect(event).toMatchObject({ action: "Binding", reportingComponent: "default-scheduler", source: {}, firstTimestamp: null });
  expect(String(event.reportingInstance)).toStartWith("default-scheduler-");
  expect(String(event.eventTime)).toMatch(/\.\d{6}Z$/);
});

test("eventBroadcaster.Shutdown: once the controller stops, Events not yet written are dropped and new ones are not taken", async () => {
  const { saved, store } = fakeEvents();
  const stop = new AbortController();
  const recorder = new EventRecorder({ events: store, signal: stop.signal });
  recorder.record(pod, note);
  stop.abort();
  recorder.record(pod, { ...note, reason: "Later" });
  await recorder.flushed();
  expect(saved.size).toBe(0);
});
