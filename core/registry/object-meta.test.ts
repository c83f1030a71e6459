import { afterEach, expect, setSystemTime, test } from "bun:test";
import { nowTimestamp } from "./object-meta.ts";

afterEach(() => setSystemTime());

test("nowTimestamp is a metav1.Time: RFC 3339 in UTC to the whole second, new each second", () => {
  setSystemTime(new Date("2026-11-26T12:00:00.999Z"));
  expect(nowTimestamp()).toBe("2026-11-26T12:00:00Z");
  setSystemTime(new Date("2026-11-26T12:00:01.001Z"));
  expect(nowTimestamp()).toBe("2026-11-26T12:00:01Z");
  setSystemTime(new Date("2026-11-26T11:59:59.500Z"));
  expect(nowTimestamp()).toBe("2026-11-26T11:59:59Z");
});
