import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { planJob } from "./job.ts";

const job = (spec: object, status: object = {}): KubeObject => ({ metadata: { name: "j" }, spec, status });
const pod = (phase: string): KubeObject => ({
  metadata: { name: phase, creationTimestamp: "2024-01-01T00:00:00Z" },
  spec: {},
  status: { phase },
});

test("planJob() starts up to parallelism pods toward the remaining completions", () => {
  const plan = planJob(job({ completions: 3, parallelism: 2 }), [pod("Succeeded"), pod("Succeeded")], Date.now());
  expect(plan.create).toBe(1);
  expect(plan.status.succeeded).toBe(2);
});

test("planJob() completes the Job once completions pods succeeded", () => {
  const plan = planJob(job({ completions: 1, parallelism: 1 }), [pod("Succeeded")], Date.now());
  expect(plan.create).toBe(0);
  expect(plan.status.conditions?.[0]).toMatchObject({ type: "Complete", status: "True" });
  expect(plan.status.completionTime).toBeDefined();
});

test("planJob() fails the Job past backoffLimit and stops its active pods", () => {
  const plan = planJob(
    job({ completions: 1, parallelism: 1, backoffLimit: 1 }),
    [pod("Failed"), pod("Failed"), pod("Running")],
    Date.now(),
  );
  expect(plan.status.conditions?.[0]).toMatchObject({
    type: "Failed",
    reason: "BackoffLimitExceeded",
    message: "Job has reached the specified backoff limit",
  });
  expect(plan.remove.map((p) => p.metadata.name)).toEqual(["Running"]);
});
