/**
 * kube's truncate audit backend (k8s.io/apiserver plugin/pkg/audit/truncate), in front of a log or webhook backend
 * when --audit-<backend>-truncate-enabled: an event whose JSON is over the maximum event size loses its request
 * and response objects (annotated audit.k8s.io/truncated: "true") if its level recorded them; one still too large
 * is dropped with an error. Events reach this backend one at a time, so every batch is one event.
 */
import { type AuditEvent, eventJson } from "./event.ts";
import { LEVELS } from "./policy.ts";
import type { AuditSink } from "./sink.ts";

export interface TruncateConfig {
  maxEventSize: number;
  maxBatchSize: number;
}

const TRUNCATED_ANNOTATION = "audit.k8s.io/truncated";

/** calcSize: the size of the event as the JSON encoder writes it, newline included. */
function sizeOf(event: AuditEvent): number {
  return Buffer.byteLength(eventJson(event)) + 1;
}

/** truncate: a shallow copy without request and response objects, marked as truncated. */
function truncated(event: AuditEvent): AuditEvent {
  return {
    ...event,
    requestObject: undefined,
    responseObject: undefined,
    annotations: { ...event.annotations, [TRUNCATED_ANNOTATION]: "true" },
  };
}

/** AuditTruncateOptions.Validate. */
export function truncateProblems(plugin: string, config: TruncateConfig): string[] {
  if (config.maxEventSize <= 0) {
    return [`invalid audit truncate ${plugin} max event size ${config.maxEventSize}, must be a positive number`];
  }
  if (config.maxBatchSize < config.maxEventSize) {
    return [
      `invalid audit truncate ${plugin} max batch size ${config.maxBatchSize}, must be greater than max event size (${config.maxEventSize})`,
    ];
  }
  return [];
}

export function truncatingSink(delegate: AuditSink, config: TruncateConfig, onError: (error: Error) => void): AuditSink {
  return {
    processEvent(event) {
      let sent = event;
      if (sizeOf(sent) > config.maxEventSize && LEVELS.indexOf(event.level) >= LEVELS.indexOf("Request")) sent = truncated(sent);
      if (sizeOf(sent) > config.maxEventSize) {
        onError(new Error(`event is too large even after truncation (audit ID ${event.auditID})`));
        return Promise.resolve(true);
      }
      return delegate.processEvent(sent);
    },
    shutdown: () => delegate.shutdown(),
  };
}
