/**
 * Process metrics: prom-client's default collectors (what its collectDefaultMetrics registers) but two that cost
 * an idle server memory and wake-ups for series kube-apiserver does not have (its process_* come from Prometheus'
 * process collector, prom-client's processCpuTotal, osMemoryHeap, process*FileDescriptors and processStartTime
 * here): `gc` (a PerformanceObserver of "gc" entries, which Bun never emits: nodejs_gc_duration_seconds had no
 * sample) and `eventLoopLag` (monitorEventLoopDelay sampling the event loop every 10 ms, ~130 wake-ups a second of
 * an idle server). Without both, an idle server is 1.2 MB smaller (bench/profiles/memory.md).
 */
import process from "node:process";
import { lazyModule } from "../runtime/lazy-module.ts";
import { Counter, type Registry } from "../runtime/prom-client.ts";

type Collector = (registry: Registry) => void;

const collector = (load: () => unknown, specifier: string) => lazyModule<Collector>(load, import.meta.url, specifier);

/**
 * prom-client's processCpuTotal without its exemplars, for which it loads @opentelemetry/api at start (~1 MiB of a
 * trivial Bun server, bench/profiles/memory.md): the same three counters, to which each scrape adds the CPU time
 * used since the last one (the first, since registration).
 */
function processCpuTotal(registry: Registry): void {
  let last = process.cpuUsage();
  // Registered first, as prom-client does, so the three print in its order.
  new Counter({
    name: "process_cpu_user_seconds_total",
    help: "Total user CPU time spent in seconds.",
    registers: [registry],
    // One collect sets all three.
    collect(this: Counter) {
      const now = process.cpuUsage();
      const userMicros = now.user - last.user;
      const systemMicros = now.system - last.system;
      last = now;
      this.inc(userMicros / 1e6);
      system.inc(systemMicros / 1e6);
      total.inc((userMicros + systemMicros) / 1e6);
    },
  });
  const system = new Counter({
    name: "process_cpu_system_seconds_total",
    help: "Total system CPU time spent in seconds.",
    registers: [registry],
  });
  const total = new Counter({
    name: "process_cpu_seconds_total",
    help: "Total user and system CPU time spent in seconds.",
    registers: [registry],
  });
}

const COLLECTORS = [
  () => processCpuTotal,
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
