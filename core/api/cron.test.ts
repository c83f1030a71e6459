import { expect, test } from "bun:test";
import { cronJobSchedule, cronScheduleError, mostRecentScheduleTime, nextScheduleTime, parseCronSchedule } from "./cron.ts";

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

// Cases after robfig/cron v3's parser_test.go and spec_test.go (TestParseSchedule, TestNext, TestEvery), reworded.
const zones = (name: string) => name === "Europe/Paris" || name === "America/New_York";

test("cronScheduleError() accepts standard schedules, descriptors, @every and a CRON_TZ prefix", () => {
  for (
    const spec of [
      "*/5 * * * *",
      "0 3 1-15 jan-jun mon,fri",
      "@hourly",
      "@annually",
      "@midnight",
      "@every 1h30m",
      "CRON_TZ=Europe/Paris 0 0 * * *",
      "TZ=America/New_York @daily",
    ]
  ) {
    expect(cronScheduleError(spec, zones)).toBeUndefined();
  }
});

test("cronScheduleError() answers robfig/cron's messages", () => {
  const cases: [string, string][] = [
    ["", "empty spec string"],
    ["* * *", "expected exactly 5 fields, found 3: [* * *]"],
    ["60 * * * *", "end of range (60) above maximum (59): 60"],
    ["* * 0 * *", "beginning of range (0) below minimum (1): 0"],
    ["* * * * 7", "end of range (7) above maximum (6): 7"],
    ["x * * * *", 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ["5-2 * * * *", "beginning of range (5) beyond end of range (2): 5-2"],
    ["1-2-3 * * * *", "too many hyphens: 1-2-3"],
    ["*/0 * * * *", "step of range should be a positive number: */0"],
    ["@often", "unrecognized descriptor: @often"],
    ["@every 5x", 'failed to parse duration @every 5x: time: unknown unit "x" in duration "5x"'],
    ["TZ=Mars/Base * * * * *", "provided bad location Mars/Base: unknown time zone Mars/Base"],
  ];
  for (const [spec, message] of cases) expect(cronScheduleError(spec, zones)).toBe(message);
});

test("@every runs at a fixed delay from the last run, whole seconds and at least one (robfig Every)", () => {
  const every = parseCronSchedule("@every 5m");
  expect(nextScheduleTime(every, at("2024-03-01T10:07:30.400Z"))).toBe(at("2024-03-01T10:12:30Z"));
  expect(nextScheduleTime(parseCronSchedule("@every 100ms"), at("2024-03-01T10:00:00Z"))).toBe(at("2024-03-01T10:00:01Z"));
  expect(mostRecentScheduleTime(every, at("2024-03-01T10:00:00Z"), at("2024-03-01T10:17:00Z"))).toEqual({
    time: at("2024-03-01T10:15:00Z"),
    missed: 2,
  });
});

test("CRON_TZ= reads the fields in that zone, across a daylight saving change", () => {
  // 09:00 in New York is 14:00 UTC in winter (EST) and 13:00 UTC after 2024-03-10 (EDT).
  const schedule = parseCronSchedule("CRON_TZ=America/New_York 0 9 * * *");
  expect(nextScheduleTime(schedule, at("2024-03-08T20:00:00Z"))).toBe(at("2024-03-09T14:00:00Z"));
  expect(nextScheduleTime(schedule, at("2024-03-09T20:00:00Z"))).toBe(at("2024-03-10T13:00:00Z"));
});

test("cronJobSchedule() applies spec.timeZone as a TZ= prefix unless the schedule has its own (formatSchedule)", () => {
  expect(nextScheduleTime(cronJobSchedule("30 0 * * *", "Europe/Paris"), at("2024-07-01T00:00:00Z"))).toBe(at("2024-07-01T22:30:00Z"));
  expect(nextScheduleTime(cronJobSchedule("CRON_TZ=UTC 30 0 * * *", null), at("2024-07-01T00:00:00Z"))).toBe(at("2024-07-01T00:30:00Z"));
  expect(cronJobSchedule("@daily").timeZone).toBe("UTC");
});

test("*/1 keeps the star bit but */2 drops it, as robfig's getRange does", () => {
  // Day-of-month */2 without the star bit: either day field may match; with dow *, only dom decides then.
  expect(parseCronSchedule("0 0 */1 * 1").dayStar).toBe(true);
  expect(parseCronSchedule("0 0 */2 * 1").dayStar).toBe(false);
});
