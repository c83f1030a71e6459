import { expect, test } from "bun:test";
import { Registry } from "prom-client";
import { collectProcessMetrics } from "./process-metrics.ts";

const seriesNames = async (registry: Registry) => (await registry.getMetricsAsJSON()).map((metric) => metric.name);

test("process metrics: Prometheus' process collector's series kube-apiserver serves (process_*), and the runtime's heap and handles", async () => {
  const registry = new Registry();
  collectProcessMetrics(registry);
  const names = await seriesNames(registry);
  for (
    const name of [
      "process_cpu_seconds_total",
      "process_start_time_seconds",
      "process_resident_memory_bytes",
      "process_virtual_memory_bytes",
      "process_open_fds",
      "process_max_fds",
      "nodejs_heap_size_used_bytes",
      "nodejs_active_handles",
      "nodejs_version_info",
    ]
  ) expect(names).toContain(name);
});

test("no gc histogram nor event-loop sampler: series kube does not have, one never observed under Bun, one waking an idle server every 10 ms", async () => {
  const registry = new Registry();
  collectProcessMetrics(registry);
  const names = await seriesNames(registry);
  expect(names).not.toContain("nodejs_gc_duration_seconds");
  expect(names.filter((name) => name.startsWith("nodejs_eventloop_lag"))).toEqual([]);
});
