/**
 * CronJob schedules beyond the five fields, parsed by the same robfig/cron v3 rules in validation
 * (ValidateCronJobCreate, validateScheduleFormat, validateTimeZone) and in the controller (formatSchedule):
 * `@every`, `CRON_TZ=` and spec.timeZone schedules run; an unknown zone is a 422.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlUntil } from "./_workloads.ts";

let server: TestServer;
beforeAll(async () => {
  // A CronJob clock 60 times faster: a one-minute schedule fires every second.
  server = await startServer(["--simulated-nodes=1", "--cronjob-clock-rate=60"]);
});
afterAll(async () => {
  await server?.stop();
});

function cronJob(name: string, schedule: string, timeZone?: string): string {
  const spec: Record<string, unknown> = {
    schedule,
    jobTemplate: { spec: { template: { spec: { restartPolicy: "Never", containers: [{ name: "c", image: "busybox" }] } } } },
  };
  if (timeZone !== undefined) spec.timeZone = timeZone;
  return JSON.stringify({ apiVersion: "batch/v1", kind: "CronJob", metadata: { name }, spec });
}

async function runsJobs(name: string): Promise<void> {
  const owners = await kubectlUntil(
    server,
    ["get", "jobs", "-o", 'jsonpath={range .items[*]}{.metadata.ownerReferences[0].name}{"\\n"}{end}'],
    (out) => out.split("\n").filter((n) => n === name).length >= 2,
    30_000,
  );
  expect(owners).toContain(name);
  expect(await kubectlUntil(server, ["get", "cronjob", name, "-o", "jsonpath={.status.lastScheduleTime}"], (out) => out !== "")).toMatch(
    /^\d{4}-\d\d-\d\dT/,
  );
}

test("an @every 1m CronJob runs Jobs (robfig Every)", async () => {
  expect((await server.kubectl(["apply", "-f", "-"], { stdin: cronJob("every", "@every 1m") })).code).toBe(0);
  await runsJobs("every");
});

test("a CRON_TZ= schedule runs Jobs (robfig's TZ prefix)", async () => {
  expect((await server.kubectl(["apply", "-f", "-"], { stdin: cronJob("paris", "CRON_TZ=Europe/Paris */1 * * * *") })).code).toBe(0);
  await runsJobs("paris");
});

test("a CronJob with spec.timeZone runs Jobs (formatSchedule adds TZ=)", async () => {
  expect((await server.kubectl(["apply", "-f", "-"], { stdin: cronJob("tokyo", "*/1 * * * *", "Asia/Tokyo") })).code).toBe(0);
  await runsJobs("tokyo");
});

test("an unknown spec.timeZone and TZ in both places are refused with 422 (validateTimeZone, validateScheduleFormat)", async () => {
  const unknown = await server.kubectl(["apply", "-f", "-"], { stdin: cronJob("nowhere", "*/1 * * * *", "Nowhere/City") });
  expect(unknown.code).not.toBe(0);
  expect(unknown.stderr).toContain('spec.timeZone: Invalid value: "Nowhere/City": unknown time zone Nowhere/City');
  const both = await server.kubectl(["apply", "-f", "-"], { stdin: cronJob("both", "CRON_TZ=UTC */1 * * * *", "Europe/Paris") });
  expect(both.stderr).toContain("cannot use both timeZone field and TZ or CRON_TZ in schedule");
  const badEvery = await server.kubectl(["apply", "-f", "-"], { stdin: cronJob("bad", "@every 5x") });
  expect(badEvery.stderr).toContain(
    'spec.schedule: Invalid value: "@every 5x": failed to parse duration @every 5x: time: unknown unit "x" in duration "5x"',
  );
});

test("a schedule that never fires (59 23 31 2 *) gets kube's Warning InvalidSchedule event and no Jobs (syncCronJob)", async () => {
  expect((await server.kubectl(["apply", "-f", "-"], { stdin: cronJob("february-31", "59 23 31 2 *") })).code).toBe(0);
  const events = await kubectlUntil(
    server,
    ["get", "events", "--field-selector", "involvedObject.name=february-31,reason=InvalidSchedule", "-o", "jsonpath={.items[*].message}"],
    (out) => out !== "",
    30_000,
  );
  expect(events).toBe("invalid schedule: 59 23 31 2 * : time difference between two schedules is less than 1 second");
  const owners = await server.kubectl(["get", "jobs", "-o", 'jsonpath={range .items[*]}{.metadata.ownerReferences[0].name}{"\\n"}{end}']);
  expect(owners.stdout.split("\n")).not.toContain("february-31");
});
