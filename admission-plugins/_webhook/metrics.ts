/**
 * apiserver_admission_webhook_rejection_count (spec 6.6), with kube's name, help and labels. Both webhook
 * plugins share the one series on the server's registry.
 */
import { Counter, type Registry } from "../../core/runtime/prom-client.ts";

export type RejectionErrorType = "calling_webhook_error" | "no_error" | "apiserver_internal_error";

export interface RejectionRecorder {
  observe(labels: { name: string; type: "admit" | "validating"; operation: string; errorType: RejectionErrorType; code: number }): void;
}

const NAME = "apiserver_admission_webhook_rejection_count";
const LABELS = ["name", "type", "operation", "error_type", "rejection_code"] as const;
const HELP =
  "[ALPHA] Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.";

export const NO_RECORDER: RejectionRecorder = { observe: () => {} };

export function rejectionRecorder(registry: Registry): RejectionRecorder {
  const counter = (registry.getSingleMetric(NAME) as Counter<(typeof LABELS)[number]> | undefined) ??
    new Counter({ name: NAME, help: HELP, labelNames: LABELS, registers: [registry] });
  return {
    observe({ name, type, operation, errorType, code }) {
      counter.inc({ name, type, operation, error_type: errorType, rejection_code: String(Math.min(code, 600)) });
    },
  };
}
