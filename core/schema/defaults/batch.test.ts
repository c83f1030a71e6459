import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { BATCH_DEFAULTERS } from "./batch.ts";

const POD_TEMPLATE = { spec: { containers: [{ name: "job", image: "busybox:1.36" }], restartPolicy: "Never" } };

function defaultedJob(spec: Record<string, unknown>, metadata: KubeObject["metadata"] = { name: "j" }): KubeObject {
  const job: KubeObject = { apiVersion: "batch/v1", kind: "Job", metadata, spec: { template: structuredClone(POD_TEMPLATE), ...spec } };
  BATCH_DEFAULTERS.kinds.Job(job);
  return job;
}

test("a Job gets parallelism and completions 1, backoffLimit 6, NonIndexed, not suspended, and pod template defaults", () => {
  expect(defaultedJob({}).spec).toMatchObject({
    completions: 1,
    parallelism: 1,
    backoffLimit: 6,
    completionMode: "NonIndexed",
    suspend: false,
    template: { spec: { restartPolicy: "Never", dnsPolicy: "ClusterFirst", containers: [{ imagePullPolicy: "IfNotPresent" }] } },
  });
});

test("a Job with only parallelism set keeps completions unset; explicit values stay", () => {
  const spec = defaultedJob({ parallelism: 3, backoffLimit: 0, completionMode: "Indexed", suspend: true }).spec;
  expect(spec).toMatchObject({ parallelism: 3, backoffLimit: 0, completionMode: "Indexed", suspend: true });
  expect((spec as { completions?: number }).completions).toBeUndefined();
  expect(defaultedJob({ completions: 5 }).spec).toMatchObject({ completions: 5, parallelism: 1 });
});

test("a Job without labels takes its pod template's labels", () => {
  const labelled = { ...structuredClone(POD_TEMPLATE), metadata: { labels: { app: "batch" } } };
  expect(defaultedJob({ template: labelled }).metadata.labels).toEqual({ app: "batch" });
  expect(defaultedJob({ template: labelled }, { name: "j", labels: { own: "yes" } }).metadata.labels).toEqual({ own: "yes" });
});

test("a Job's pod failure policy patterns match status True by default", () => {
  const policy = { rules: [{ action: "Ignore", onPodConditions: [{ type: "DisruptionTarget" }, { type: "Other", status: "False" }] }] };
  expect(defaultedJob({ podFailurePolicy: policy }).spec).toMatchObject({
    podFailurePolicy: { rules: [{ onPodConditions: [{ type: "DisruptionTarget", status: "True" }, { type: "Other", status: "False" }] }] },
  });
});

test("a CronJob gets Allow, not suspended, history limits 3 and 1, and pod defaults but no Job defaults in its job template", () => {
  const cronJob: KubeObject = {
    apiVersion: "batch/v1",
    kind: "CronJob",
    metadata: { name: "c" },
    spec: { schedule: "* * * * *", jobTemplate: { spec: { template: structuredClone(POD_TEMPLATE) } } },
  };
  BATCH_DEFAULTERS.kinds.CronJob(cronJob);
  const spec = cronJob.spec as { jobTemplate: { spec: Record<string, unknown> } };
  expect(spec).toMatchObject({ concurrencyPolicy: "Allow", suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
  expect(spec.jobTemplate.spec).toMatchObject({ template: { spec: { schedulerName: "default-scheduler" } } });
  expect(spec.jobTemplate.spec).not.toHaveProperty("backoffLimit");
});
