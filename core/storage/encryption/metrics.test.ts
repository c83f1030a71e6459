import { expect, test } from "bun:test";
import { Counter, Histogram, Registry } from "prom-client";
import { encryptionMetrics } from "./metrics.ts";

const OPERATIONS = "apiserver_storage_transformation_operations_total";
const DURATIONS = "apiserver_storage_transformation_duration_seconds";

test("transformation series (kube's RecordTransformation) print as prom-client's Counter and Histogram print the same records", async () => {
  const ours = new Registry();
  const metrics = encryptionMetrics(ours);
  const theirs = new Registry();
  const operations = new Counter({
    name: OPERATIONS,
    help: "[ALPHA] Total number of transformations.",
    labelNames: ["transformation_type", "transformer_prefix", "status"],
    registers: [theirs],
  });
  const durations = new Histogram({
    name: DURATIONS,
    help: "[ALPHA] Latencies in seconds of value transformation operations.",
    labelNames: ["transformation_type", "transformer_prefix"],
    buckets: Array.from({ length: 25 }, (_, i) => 5e-6 * 2 ** i),
    registers: [theirs],
  });
  const records = [
    ["to_storage", "k8s:enc:aescbc:v1:key1:", 0.00002, undefined],
    ["from_storage", "k8s:enc:aescbc:v1:key1:", 0.3, undefined],
    ["to_storage", "k8s:enc:aescbc:v1:key1:", 0.00002, undefined],
    ["from_storage", "unknown", 0, new Error("no prefix matched")],
  ] as const;
  for (const [type, prefix, seconds, error] of records) {
    metrics.recordTransformation(type, prefix, seconds, error);
    operations.inc({ transformation_type: type, transformer_prefix: prefix, status: error ? "unknown-non-grpc" : "OK" });
    if (!error) durations.observe({ transformation_type: type, transformer_prefix: prefix }, seconds);
  }
  expect(await ours.getSingleMetricAsString(OPERATIONS)).toContain(
    `${OPERATIONS}{transformation_type="to_storage",transformer_prefix="k8s:enc:aescbc:v1:key1:",status="OK"} 2`,
  );
  for (const name of [OPERATIONS, DURATIONS]) {
    expect(await ours.getSingleMetricAsString(name)).toBe(await theirs.getSingleMetricAsString(name));
  }
});
