/**
 * Admission metrics. kube's (k8s.io/apiserver pkg/admission/metrics): every plugin of the chain is timed by
 * WithControllerMetrics (apiserver_admission_controller_admission_duration_seconds{name,type,operation,rejected})
 * and each phase by WithStepMetrics (apiserver_admission_step_admission_duration_seconds{type,operation,rejected}),
 * same names, help, labels and buckets. kubun's own: custom plugins' worker replacements, failed hot reloads and
 * policy violations by enforcement mode. The two histograms are observed several times per write request, so they
 * keep their series behind one key (core/metrics/series.ts) rather than in prom-client's label-hashing children.
 */
import { Counter, Registry } from "../runtime/prom-client.ts";
import { HistogramSeries } from "../metrics/series.ts";

const BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];

export type AdmissionStep = "admit" | "validate";

export class AdmissionMetrics {
  readonly #controller: HistogramSeries;
  readonly #step: HistogramSeries;
  readonly #workerReplacements: Counter<"name" | "reason">;
  readonly #reloadFailures: Counter<"name">;
  readonly #violations: Counter<"name" | "enforcement">;

  constructor(registry: Registry = new Registry()) {
    const registers = [registry];
    this.#controller = new HistogramSeries(
      registry,
      "apiserver_admission_controller_admission_duration_seconds",
      "[STABLE] Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).",
      ["name", "type", "operation", "rejected"],
      BUCKETS,
    );
    this.#step = new HistogramSeries(
      registry,
      "apiserver_admission_step_admission_duration_seconds",
      "[STABLE] Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).",
      ["type", "operation", "rejected"],
      BUCKETS,
    );
    this.#workerReplacements = new Counter({
      name: "kubun_admission_plugin_worker_replacements_total",
      help: "Workers of custom admission plugins replaced, by plugin and reason (timeout, crash, or recycled after their share of calls).",
      labelNames: ["name", "reason"],
      registers,
    });
    this.#reloadFailures = new Counter({
      name: "kubun_admission_plugin_reload_failures_total",
      help: "Changed custom admission plugin files that failed to load; the previous version stays active.",
      labelNames: ["name"],
      registers,
    });
    this.#violations = new Counter({
      name: "kubun_admission_plugin_violations_total",
      help: "Requests a custom admission plugin refused, by plugin and enforcement mode (Deny, Warn, Audit).",
      labelNames: ["name", "enforcement"],
      registers,
    });
  }

  /** kube's ObserveAdmissionController. */
  observePlugin(name: string, step: AdmissionStep, operation: string, seconds: number, rejected: boolean): void {
    this.#controller.cell(name, step, operation, String(rejected)).observe(seconds);
  }

  /** kube's ObserveAdmissionStep. */
  observeStep(step: AdmissionStep, operation: string, seconds: number, rejected: boolean): void {
    this.#step.cell(step, operation, String(rejected)).observe(seconds);
  }

  workerReplaced(name: string, reason: "timeout" | "crash" | "recycled"): void {
    this.#workerReplacements.inc({ name, reason });
  }

  reloadFailed(name: string): void {
    this.#reloadFailures.inc({ name });
  }

  violation(name: string, enforcement: string): void {
    this.#violations.inc({ name, enforcement });
  }
}
