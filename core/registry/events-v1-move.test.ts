import { afterEach, beforeEach, expect, test } from "bun:test";
import { openSqliteStorage } from "../storage/sqlite/mod.ts";
import type { Storage } from "../storage/storage.ts";
import { moveOldEventsV1Keys, OLD_EVENTS_V1_PREFIX } from "./events-v1-move.ts";

let storage: Storage;
beforeEach(() => {
  storage = openSqliteStorage(":memory:");
});
afterEach(() => storage.close());

const modern = (name: string, note: string) =>
  JSON.stringify({
    apiVersion: "events.k8s.io/v1",
    kind: "Event",
    metadata: { name, namespace: "ns", uid: `uid-${name}` },
    eventTime: "2026-01-01T00:00:00.000000Z",
    reportingController: "example.com/ctl",
    reportingInstance: "ctl-0",
    action: "Scheduling",
    reason: "Scheduled",
    regarding: { kind: "Pod", namespace: "ns", name: "web" },
    note,
    type: "Normal",
  });

const core = (name: string, message: string) =>
  JSON.stringify({ apiVersion: "v1", kind: "Event", metadata: { name, namespace: "ns" }, involvedObject: { kind: "Pod" }, message });

async function valueOf(key: string): Promise<Record<string, unknown> | null> {
  const kv = await storage.get(key);
  return kv === null ? null : JSON.parse(kv.value);
}

test("an old-key events.k8s.io Event becomes a core/v1 Event (coreEventFromEventsV1) at a new revision, its metadata kept", async () => {
  const old = await storage.write({ op: "create", key: `${OLD_EVENTS_V1_PREFIX}ns/a`, value: modern("a", "hello") });
  expect(await moveOldEventsV1Keys(storage)).toBe(1);
  expect(await storage.get(old.key)).toBeNull();
  const moved = (await storage.get("/core/events/ns/a"))!;
  expect(moved.modRevision).toBeGreaterThan(old.modRevision);
  expect(JSON.parse(moved.value)).toMatchObject({
    apiVersion: "v1",
    kind: "Event",
    metadata: { name: "a", uid: "uid-a" },
    message: "hello",
    involvedObject: { name: "web" },
    reportingComponent: "example.com/ctl",
  });
  expect(await moveOldEventsV1Keys(storage)).toBe(0);
});

test("of an old-key Event and a core Event of one name, the later write is kept and the other dropped", async () => {
  await storage.write({ op: "create", key: "/core/events/ns/core-later", value: core("core-later", "early") });
  await storage.write({ op: "create", key: `${OLD_EVENTS_V1_PREFIX}ns/core-later`, value: modern("core-later", "old key") });
  await storage.write({ op: "update", key: "/core/events/ns/core-later", value: core("core-later", "late"), expectedRevision: 0 });
  await storage.write({ op: "create", key: `${OLD_EVENTS_V1_PREFIX}ns/old-later`, value: modern("old-later", "old key, later") });
  await storage.write({ op: "create", key: "/core/events/ns/old-later", value: core("old-later", "earlier") });
  await storage.write({
    op: "update",
    key: `${OLD_EVENTS_V1_PREFIX}ns/old-later`,
    value: modern("old-later", "old key, latest"),
    expectedRevision: 0,
  });
  expect(await moveOldEventsV1Keys(storage)).toBe(2);
  expect((await valueOf("/core/events/ns/core-later"))?.message).toBe("late");
  expect((await valueOf("/core/events/ns/old-later"))?.message).toBe("old key, latest");
  expect(await storage.count(OLD_EVENTS_V1_PREFIX)).toBe(0);
});

test("a move cut off after the copy (kill -9) finishes at the next start: the copy is the later write, kept as it is", async () => {
  const old = await storage.write({ op: "create", key: `${OLD_EVENTS_V1_PREFIX}ns/cut`, value: modern("cut", "once") });
  // The state a kill between the copy and the delete leaves: the old key at its revision, the copy after it.
  const copy = await storage.write({ op: "create", key: "/core/events/ns/cut", value: core("cut", "once") });
  expect(await moveOldEventsV1Keys(storage)).toBe(1);
  expect(await storage.get(old.key)).toBeNull();
  expect((await storage.get("/core/events/ns/cut"))!.modRevision).toBe(copy.modRevision);
});

test("an old-key value that is no JSON is left where it is, the others still move", async () => {
  await storage.write({ op: "create", key: `${OLD_EVENTS_V1_PREFIX}ns/bad`, value: "not json" });
  await storage.write({ op: "create", key: `${OLD_EVENTS_V1_PREFIX}ns/good`, value: modern("good", "fine") });
  expect(await moveOldEventsV1Keys(storage)).toBe(1);
  expect(await storage.get(`${OLD_EVENTS_V1_PREFIX}ns/bad`)).not.toBeNull();
  expect(await storage.get("/core/events/ns/good")).not.toBeNull();
});
