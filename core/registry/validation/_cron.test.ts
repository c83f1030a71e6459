import { expect, test } from "bun:test";
import { cronScheduleError } from "./_cron.ts";

const zones = (name: string) => name === "Europe/Paris";

test("cronScheduleError() accepts standard schedules and descriptors", () => {
  for (const spec of ["*/5 * * * *", "0 3 1-15 jan-jun mon,fri", "@hourly", "@every 1h30m", "CRON_TZ=Europe/Paris 0 0 * * *"]) {
    expect(cronScheduleError(spec, zones)).toBeUndefined();
  }
});

test("cronScheduleError() answers robfig/cron's messages", () => {
  const cases: [string, string][] = [
    ["", "empty spec string"],
    ["* * *", "expected exactly 5 fields, found 3: [* * *]"],
    ["60 * * * *", "end of range (60) above maximum (59): 60"],
    ["* * 0 * *", "beginning of range (0) below minimum (1): 0"],
    ["x * * * *", 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ["5-2 * * * *", "beginning of range (5) beyond end of range (2): 5-2"],
    ["@often", "unrecognized descriptor: @often"],
    ["TZ=Mars/Base * * * * *", "provided bad location Mars/Base: unknown time zone Mars/Base"],
  ];
  for (const [spec, message] of cases) expect(cronScheduleError(spec, zones)).toBe(message);
});
