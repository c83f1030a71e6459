/**
 * kube's encryption-at-rest metrics (k8s.io/apiserver pkg/storage/value/metrics.go and the encryption configuration
 * controller's reload counters of 1.26), registered on the server's /metrics registry. The per-transformation series
 * (every encrypted read and write) keep their label sets behind one key (core/metrics/series.ts).
 */
import { Counter, type Registry } from "../../runtime/prom-client.ts";
import { CounterSeries, HistogramSeries } from "../../metrics/series.ts";
import { grpcCodeOf } from "./kms/grpc-error.ts";

export type TransformationType = "from_storage" | "to_storage";

/**
 * kube's RecordTransformation: prefix "identity" for the identity provider, "unknown" when no prefix matched;
 * `error` is the failure, undefined on success.
 */
export type TransformationRecorder = (type: TransformationType, prefix: string, seconds: number, error?: unknown) => void;

export interface EncryptionMetrics {
  recordTransformation: TransformationRecorder;
  recordReload(succeeded: boolean): void;
}

/** kube's ExponentialBuckets(5e-6, 2, 25). */
const TRANSFORMATION_BUCKETS = Array.from({ length: 25 }, (_, i) => 5e-6 * 2 ** i);

export function encryptionMetrics(registry: Registry): EncryptionMetrics {
  const registers = [registry];
  const operations = new CounterSeries(
    registry,
    "apiserver_storage_transformation_operations_total",
    "[ALPHA] Total number of transformations.",
    [
      "transformation_type",
      "transformer_prefix",
      "status",
    ],
  );
  const durations = new HistogramSeries(
    registry,
    "apiserver_storage_transformation_duration_seconds",
    "[ALPHA] Latencies in seconds of value transformation operations.",
    ["transformation_type", "transformer_prefix"],
    TRANSFORMATION_BUCKETS,
  );
  const reloadSuccesses = new Counter({
    name: "apiserver_encryption_config_controller_automatic_reload_success_total",
    help: "[ALPHA] Total number of successful automatic reloads of encryption configuration.",
    registers,
  });
  const reloadFailures = new Counter({
    name: "apiserver_encryption_config_controller_automatic_reload_failures_total",
    help: "[ALPHA] Total number of failed automatic reloads of encryption configuration.",
    registers,
  });
  return {
    recordTransformation(type, prefix, seconds, error) {
      // kube's getErrorCode: "OK", the gRPC code of a failed KMS plugin call, or "unknown-non-grpc".
      const status = error === undefined ? "OK" : grpcCodeOf(error) ?? "unknown-non-grpc";
      operations.cell(type, prefix, status).value++;
      if (error === undefined) durations.cell(type, prefix).observe(seconds);
    },
    recordReload: (succeeded) => (succeeded ? reloadSuccesses : reloadFailures).inc(),
  };
}
