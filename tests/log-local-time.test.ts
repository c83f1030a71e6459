/**
 * klog's text header (formatHeader) prints local time. kubun reads the UTC fields when the local zone is certainly UTC
 * (core/log/local-zone.ts, so that an idle server does not load ICU's time-zone data) and the local-time ones
 * otherwise; both must print the local time of the zone the server runs in.
 */
import { afterEach, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const MINUTES_A_DAY = 24 * 60;
const utcMinuteOfDay = (date: Date) => date.getUTCHours() * 60 + date.getUTCMinutes();

const SERVING_LINE = /^I\d{4} (\d{2}):(\d{2}):\d{2}\.\d{6} +\d+ apiserver\] serving the Kubernetes API/m;

/** The minute of the day in the header of the server's "serving the Kubernetes API" line, once it has written it. */
async function loggedMinuteOfDay(running: TestServer): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const match = SERVING_LINE.exec(running.log());
    if (match) return Number(match[1]) * 60 + Number(match[2]);
    await Bun.sleep(50);
  }
  throw new Error(`no serving line in:\n${running.log()}`);
}

/** Starts a server under `tz` and checks that its header, less `offsetMinutes`, falls between the UTC times around it. */
async function expectHeaderOffset(tz: string, offsetMinutes: number): Promise<void> {
  const before = utcMinuteOfDay(new Date());
  server = await startServer([], { env: { TZ: tz } });
  const logged = await loggedMinuteOfDay(server);
  const after = utcMinuteOfDay(new Date());
  const sinceBefore = (logged - offsetMinutes - before + 2 * MINUTES_A_DAY) % MINUTES_A_DAY;
  expect(sinceBefore).toBeLessThanOrEqual((after - before + MINUTES_A_DAY) % MINUTES_A_DAY);
}

test("klog's header (formatHeader) prints local time: TZ=Asia/Kolkata logs 5 h 30 min ahead of UTC", async () => {
  await expectHeaderOffset("Asia/Kolkata", 330);
});

test("klog's header under TZ=UTC, read from the UTC fields without ICU's zone data, prints UTC", async () => {
  await expectHeaderOffset("UTC", 0);
});
