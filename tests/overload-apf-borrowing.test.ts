/**
 * Concurrency borrowing between priority levels and the apiserver_flowcontrol_* series of kube 1.26 against the
 * compiled server (default limits: 400 + 200 = 600 seats): a level that lends part of its nominal limit, the limits
 * kube's apf_controller derives (finishQueueSetReconfigsLocked, updateBorrowingLocked) as its metrics show them,
 * and the seats a held request occupies (AddRequestConcurrencyInUse).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { createConfigMapAs, type HeldRequests, holdConfigMapCreates, until } from "./_held-requests.ts";

let server: TestServer;
let held: HeldRequests | undefined;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await held?.close();
  await server?.stop();
});

const metrics = async () => await (await server.request("GET", "/metrics")).text();
const gauge = (text: string, name: string, labels: string) =>
  Number(text.match(new RegExp(`^apiserver_flowcontrol_${name}${labels ? `\\{${labels}\\}` : ""} (\\S+)$`, "m"))?.[1]);

const LENDER = `apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
kind: PriorityLevelConfiguration
metadata:
  name: lender
spec:
  type: Limited
  limited:
    nominalConcurrencyShares: 55
    lendablePercent: 40
    borrowingLimitPercent: 10
    limitResponse:
      type: Reject
`;

test("kube 1.26's suggested levels lend their bootstrap percentages: each lower limit is nominal minus round(nominal × lendablePercent ÷ 100) (default.go, finishQueueSetReconfigsLocked)", async () => {
  // Bootstrap shares sum to 245: nominal = ceil(600 × shares ÷ 245); lendable percents system 33, node-high 25,
  // leader-election 0, workload-high 50, workload-low 90, global-default 50, catch-all 0.
  const expected: Record<string, [nominal: number, lower: number]> = {
    "system": [74, 50],
    "node-high": [98, 73],
    "leader-election": [25, 25],
    "workload-high": [98, 49],
    "workload-low": [245, 24],
    "global-default": [49, 24],
    "catch-all": [13, 13],
  };
  await until(async () => gauge(await metrics(), "lower_limit_seats", 'priority_level="workload-low"') === 24);
  const text = await metrics();
  for (const [level, [nominal, lower]] of Object.entries(expected)) {
    expect([level, gauge(text, "nominal_limit_seats", `priority_level="${level}"`)]).toEqual([level, nominal]);
    expect([level, gauge(text, "lower_limit_seats", `priority_level="${level}"`)]).toEqual([level, lower]);
  }
  const served = await server.kubectl([
    "get",
    "prioritylevelconfigurations.v1beta3.flowcontrol.apiserver.k8s.io",
    "workload-low",
    "-o",
    "jsonpath={.spec.limited.nominalConcurrencyShares} {.spec.limited.lendablePercent}",
  ]);
  expect(served.stdout).toBe("100 90");
});

test("a level lending 40% gets kube's nominal, lower and upper limits, and the idle levels share the lent seats (updateBorrowingLocked)", async () => {
  expect((await server.kubectl(["apply", "-f", "-"], { stdin: LENDER })).code).toBe(0);
  const served = await server.kubectl([
    "get",
    "prioritylevelconfigurations.v1beta3.flowcontrol.apiserver.k8s.io",
    "lender",
    "-o",
    "jsonpath={.spec.limited.lendablePercent} {.spec.limited.borrowingLimitPercent}",
  ]);
  expect(served.stdout).toBe("40 10");
  // Shares 245 of the bootstrap levels + 55 = 300: the lender's nominal limit is 600 × 55 ÷ 300 = 110, it may lend
  // round(44) and borrow round(11).
  await until(async () => gauge(await metrics(), "nominal_limit_seats", 'priority_level="lender"') === 110);
  const text = await metrics();
  expect(gauge(text, "lower_limit_seats", 'priority_level="lender"')).toBe(66);
  expect(gauge(text, "upper_limit_seats", 'priority_level="lender"')).toBe(121);
  expect(gauge(text, "request_concurrency_limit", 'priority_level="lender"')).toBe(110);
  expect(gauge(text, "upper_limit_seats", 'priority_level="global-default"')).toBe(40 + 600);
  // global-default (nominal 40) lends its bootstrap 50%.
  expect(gauge(text, "lower_limit_seats", 'priority_level="global-default"')).toBe(20);
  // Nothing demands seats: every level's target is its lower bound (they sum to 276). The lender stops at its upper
  // limit 121, so the fair fraction that makes the limits sum to the 600 nominal seats is (600 − 121) ÷ (276 − 66),
  // and global-default gets round(20 × 2.281) = 46.
  expect(gauge(text, "seat_fair_frac", "")).toBeCloseTo(479 / 210, 9);
  expect(gauge(text, "current_limit_seats", 'priority_level="lender"')).toBe(121);
  expect(gauge(text, "current_limit_seats", 'priority_level="global-default"')).toBe(46);
  expect(gauge(text, "target_seats", 'priority_level="lender"')).toBe(66);
  expect(text).toContain("# HELP apiserver_flowcontrol_current_limit_seats [ALPHA] current derived number of execution seats");
});

test("a held request occupies its seat in request_concurrency_in_use until it ends, and is counted dispatched", async () => {
  held = await holdConfigMapCreates(server, "apf-borrowing");
  const pending = createConfigMapAs(server, "borrowing-user", "held-1", "apf-borrowing");
  const labels = 'priority_level="global-default",flow_schema="global-default"';
  await until(async () => gauge(await metrics(), "request_concurrency_in_use", labels) === 1);
  expect(gauge(await metrics(), "current_executing_requests", labels)).toBe(1);
  held.release();
  expect((await pending).status).toBe(201);
  await until(async () => gauge(await metrics(), "request_concurrency_in_use", labels) === 0);
  const text = await metrics();
  expect(gauge(text, "dispatched_requests_total", labels)).toBe(1);
  // kube's ObserveQueueLength: every request is enqueued before dispatch, so it saw a queue of 1.
  expect(gauge(text, "request_queue_length_after_enqueue_count", labels)).toBe(1);
  // kube's ObserveWatchCount: the write reached no watch.
  expect(gauge(text, "watch_count_samples_bucket", `le="0",${labels}`)).toBe(1);
  // kube's SetCurrentR and SetDispatchMetrics: virtual time in seat-seconds moved while the request held its seat.
  expect(gauge(text, "current_r", 'priority_level="global-default"')).toBeGreaterThan(0);
  expect(gauge(text, "dispatch_r", 'priority_level="global-default"')).toBeGreaterThanOrEqual(0);
  expect(gauge(text, "latest_s", 'priority_level="global-default"')).toBeGreaterThanOrEqual(0);
  // kube's timing ratio histograms: nanoseconds at each ratio; one seat of global-default's limit was in use for a while.
  const seatTime = gauge(text, "priority_level_seat_utilization_count", 'phase="executing",priority_level="global-default"');
  expect(seatTime).toBeGreaterThan(0);
  expect(gauge(text, "priority_level_seat_utilization_sum", 'phase="executing",priority_level="global-default"')).toBeGreaterThan(0);
  expect(gauge(text, "read_vs_write_current_requests_sum", 'phase="executing",request_kind="mutating"')).toBeGreaterThan(0);
});

test("an exempt request is dispatched at once without a work estimate (kube 1.26's immediateRequest)", async () => {
  // The admin client is in system:masters: every request of this file's set-up went to the exempt level.
  const text = await metrics();
  const labels = 'priority_level="exempt",flow_schema="exempt"';
  expect(gauge(text, "dispatched_requests_total", labels)).toBeGreaterThan(0);
  expect(gauge(text, "work_estimated_seats_count", labels) || 0).toBe(0);
});
