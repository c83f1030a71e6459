import { expect, test } from "bun:test";
import { mostRecentScheduleTime, nextScheduleTime, parseCronSchedule } from "./cron-schedule.ts";

const at = (iso: string) => Date.parse(iso);

test("nextScheduleTime() of */15 is the next quarter hour", () => {
  expect(nextScheduleTime(parseCronSchedule("*/15 * * * *"), at("2024-03-01T10:07:30Z"))).toBe(at("2024-03-01T10:15:00Z"));
});

test("nextScheduleTime() honours names, ranges and the weekday field", () => {
  // 2024-03-01 is a Friday; the next Monday-to-Wednesday 09:30 is Monday 2024-03-04.
  expect(nextScheduleTime(parseCronSchedule("30 9 * MAR mon-wed"), at("2024-03-01T12:00:00Z"))).toBe(at("2024-03-04T09:30:00Z"));
});

test("a schedule naming both day fields fires on either, as robfig/cron does", () => {
  const schedule = parseCronSchedule("0 0 13 * 5");
  // Friday 2024-03-08 matches the weekday although it is not the 13th.
  expect(nextScheduleTime(schedule, at("2024-03-02T00:00:00Z"))).toBe(at("2024-03-08T00:00:00Z"));
});

test("@hourly is the start of every hour", () => {
  expect(nextScheduleTime(parseCronSchedule("@hourly"), at("2024-03-01T10:00:00Z"))).toBe(at("2024-03-01T11:00:00Z"));
});

test("parseCronSchedule() rejects a wrong field count and out-of-range values", () => {
  expect(() => parseCronSchedule("* * * *")).toThrow("expected exactly 5 fields");
  expect(() => parseCronSchedule("61 * * * *")).toThrow();
});

test("mostRecentScheduleTime() answers the latest missed time and counts the others", () => {
  const result = mostRecentScheduleTime(parseCronSchedule("*/1 * * * *"), at("2024-03-01T10:00:00Z"), at("2024-03-01T10:03:30Z"));
  expect(result).toEqual({ time: at("2024-03-01T10:03:00Z"), missed: 2 });
});
