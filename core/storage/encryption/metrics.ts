/**
 * kube's encryption-at-rest metrics (k8s.io/apiserver pkg/storage/value/metrics.go and the encryption configuration
 * controller's reload counters of 1.26), registered on the server's /metrics registry.
 */
import { Counter, Histogram, type Registry } from "prom-client";

export type TransformationType = "from_storage" | "to_storage";

/** kube's RecordTransformation: prefix "identity" for the identity provider, "unknown" when no prefix matched. */
export type TransformationRecorder = (type: TransformationType, prefix: string, seconds: number, failed: boolean) => void;

export interface EncryptionMetrics {
  recordTransformation: TransformationRecorder;
  recordReload(succeeded: boolean): void;
}

/** kube's ExponentialBuckets(5e-6, 2, 25). */
const TRANSFORMATION_BUCKETS = Array.from({ length: 25 }, (_, i) => 5e-6 * 2 ** i);

export function encryptionMetrics(registry: Registry): EncryptionMetrics {
  const registers = [registry];
  const operations = new Counter({
    name: "apiserver_storage_transformation_operations_total",
    help: "[ALPHA] Total number of transformations.",
    labelNames: ["transformation_type", "transformer_prefix", "status"],
    registers,
  });
  const durations = new Histogram({
    name: "apiserver_storage_transformation_duration_seconds",
    help: "[ALPHA] Latencies in seconds of value transformation operations.",
    labelNames: ["transformation_type", "transformer_prefix"],
    buckets: TRANSFORMATION_BUCKETS,
    registers,
  });
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
    recordTransformation(type, prefix, seconds, failed) {
      // kube's getErrorCode: "OK", or "unknown-non-grpc" for failures outside a KMS call.
      operations.inc({ transformation_type: type, transformer_prefix: prefix, status: failed ? "unknown-non-grpc" : "OK" });
      if (!failed) durations.observe({ transformation_type: type, transformer_prefix: prefix }, seconds);
    },
    recordReload: (succeeded) => (succeeded ? reloadSuccesses : reloadFailures).inc(),
  };
}
