import { expect, test } from "bun:test";
import { Histogram, Registry } from "prom-client";
import { AdmissionMetrics } from "./metrics.ts";

const BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];
const CONTROLLER = "apiserver_admission_controller_admission_duration_seconds";
const STEP = "apiserver_admission_step_admission_duration_seconds";

test("admission duration histograms (kube's ObserveAdmissionController and ObserveAdmissionStep) print as prom-client's Histogram prints the same observations", async () => {
  const ours = new Registry();
  const metrics = new AdmissionMetrics(ours);
  const theirs = new Registry();
  const controller = new Histogram({
    name: CONTROLLER,
    help:
      "[STABLE] Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).",
    labelNames: ["name", "type", "operation", "rejected"],
    buckets: BUCKETS,
    registers: [theirs],
  });
  const step = new Histogram({
    name: STEP,
    help:
      "[STABLE] Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).",
    labelNames: ["type", "operation", "rejected"],
    buckets: BUCKETS,
    registers: [theirs],
  });
  const observations = [
    ["NamespaceLifecycle", "admit", "CREATE", 0.0001, false],
    ["ResourceQuota", "validate", "CREATE", 0.03, false],
    ["NamespaceLifecycle", "admit", "CREATE", 0.7, true],
    ['odd"name\\', "validate", "UPDATE", 9, false],
  ] as const;
  for (const [name, type, operation, seconds, rejected] of observations) {
    metrics.observePlugin(name, type, operation, seconds, rejected);
    metrics.observeStep(type, operation, seconds, rejected);
    controller.observe({ name, type, operation, rejected: String(rejected) }, seconds);
    step.observe({ type, operation, rejected: String(rejected) }, seconds);
  }
  const text = await ours.metrics();
  expect(text).toContain(
    `${CONTROLLER}_bucket{le="0.005",name="NamespaceLifecycle",type="admit",operation="CREATE",rejected="false"} 1`,
  );
  expect(text).toContain(`${STEP}_count{type="admit",operation="CREATE",rejected="true"} 1`);
  for (const name of [CONTROLLER, STEP]) {
    expect(await ours.getSingleMetricAsString(name)).toBe(await theirs.getSingleMetricAsString(name));
  }
});
