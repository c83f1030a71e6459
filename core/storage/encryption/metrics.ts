/**
 * kube's encryption-at-rest metrics (k8s.io/apiserver pkg/storage/value/metrics.go and the encryption configuration
 * controller's reload counters of 1.26), registered on the server's /metrics registry.
 */
import { Counter, Histogram, type Registry } from "prom-client";
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
    recordTransformation(type, prefix, seconds, error) {
      // kube's getErrorCode: "OK", the gRPC code of a failed KMS plugin call, or "unknown-non-grpc".
      const status = error === undefined ? "OK" : grpcCodeOf(error) ?? "unknown-non-grpc";
      operations.inc({ transformation_type: type, transformer_prefix: prefix, status });
      if (error === undefined) durations.observe({ transformation_type: type, transformer_prefix: prefix }, seconds);
    },
    recordReload: (succeeded) => (succeeded ? reloadSuccesses : reloadFailures).inc(),
  };
}
