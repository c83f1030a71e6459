/**
 * Process metrics: prom-client's default collectors (what its collectDefaultMetrics registers) but two that cost
 * an idle server memory and wake-ups for series kube-apiserver does not have (its process_* come from Prometheus'
 * process collector, prom-client's processCpuTotal, osMemoryHeap, process*FileDescriptors and processStartTime
 * here): `gc` (a PerformanceObserver of "gc" entries, which Bun never emits: nodejs_gc_duration_seconds had no
 * sample) and `eventLoopLag` (monitorEventLoopDelay sampling the event loop every 10 ms, ~130 wake-ups a second of
 * an idle server). Without both, an idle server is 1.2 MB smaller (bench/profiles/memory.md).
 */
import type { Registry } from "prom-client";
import { lazyModule } from "../runtime/lazy-module.ts";

type Collector = (registry: Registry) => void;

const collector = (load: () => unknown, specifier: string) => lazyModule<Collector>(load, import.meta.url, specifier);

const COLLECTORS = [
  collector(() => require("prom-client/lib/metrics/processCpuTotal.js"), "prom-client/lib/metrics/processCpuTotal.js"),
  collector(() => require("prom-client/lib/metrics/processStartTime.js"), "prom-client/lib/metrics/processStartTime.js"),
  collector(() => require("prom-client/lib/metrics/osMemoryHeap.js"), "prom-client/lib/metrics/osMemoryHeap.js"),
  collector(
    () => require("prom-client/lib/metrics/processOpenFileDescriptors.js"),
    "prom-client/lib/metrics/processOpenFileDescriptors.js",
  ),
  collector(
    () => require("prom-client/lib/metrics/processMaxFileDescriptors.js"),
    "prom-client/lib/metrics/processMaxFileDescriptors.js",
  ),
  collector(() => require("prom-client/lib/metrics/processResources.js"), "prom-client/lib/metrics/processResources.js"),
  collector(() => require("prom-client/lib/metrics/processHandles.js"), "prom-client/lib/metrics/processHandles.js"),
  collector(() => require("prom-client/lib/metrics/processRequests.js"), "prom-client/lib/metrics/processRequests.js"),
  collector(() => require("prom-client/lib/metrics/heapSizeAndUsed.js"), "prom-client/lib/metrics/heapSizeAndUsed.js"),
  collector(() => require("prom-client/lib/metrics/heapSpacesSizeAndUsed.js"), "prom-client/lib/metrics/heapSpacesSizeAndUsed.js"),
  collector(() => require("prom-client/lib/metrics/version.js"), "prom-client/lib/metrics/version.js"),
];

export function collectProcessMetrics(registry: Registry): void {
  for (const collect of COLLECTORS) collect()(registry);
}
