import { expect, test } from "bun:test";
import { checkRequestLimitFlags, queueWaitLimitMs } from "./request-limits.ts";

const flags = (maxRequestsInflight: number, maxMutatingRequestsInflight: number, enablePriorityAndFairness = true) => () =>
  checkRequestLimitFlags({ maxRequestsInflight, maxMutatingRequestsInflight, enablePriorityAndFairness, requestTimeoutMs: 60_000 });

test("negative in-flight limits stop start-up with kube's ServerRunOptions.Validate messages", () => {
  expect(flags(-1, 200)).toThrow("--max-requests-inflight can not be negative value");
  expect(flags(400, -1)).toThrow("--max-mutating-requests-inflight can not be negative value");
});

test("APF needs a positive total concurrency (kube's BuildPriorityAndFairness); without APF zero disables the limits", () => {
  expect(flags(0, 0)).toThrow(
    "invalid configuration: MaxRequestsInFlight=0 and MaxMutatingRequestsInFlight=0; parallelism must be at least 1",
  );
  expect(flags(0, 0, false)).not.toThrow();
  expect(flags(400, 200)).not.toThrow();
});

test("APF queues a request for at most a quarter of --request-timeout (kube's BuildPriorityAndFairness RequestTimeout/4)", () => {
  expect(queueWaitLimitMs(60_000)).toBe(15_000);
  expect(queueWaitLimitMs(8_000)).toBe(2_000);
});
