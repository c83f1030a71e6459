import { expect, test } from "bun:test";
import { EventSpamFilter } from "./event-spam-filter.ts";
import { newEvent } from "./events.ts";

const about = (name: string) =>
  newEvent({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: "ns" } }, {
    type: "Warning",
    reason: "PolicyViolation",
    message: "no",
    component: "kubun-admission",
  });

test("EventSourceObjectSpamFilter: 25 events about one object pass, then one per 5 minutes", () => {
  let now = 0;
  const filter = new EventSpamFilter(() => now);
  const passed = Array.from({ length: 30 }, () => filter.allows(about("a"))).filter(Boolean).length;
  expect(passed).toBe(25);
  expect(filter.allows(about("b"))).toBe(true);
  now += 299_000;
  expect(filter.allows(about("a"))).toBe(false);
  now += 1_000;
  expect(filter.allows(about("a"))).toBe(true);
  expect(filter.allows(about("a"))).toBe(false);
});
