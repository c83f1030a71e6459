/**
 * Audit set-up from the flags, as kube's AuditOptions (k8s.io/apiserver pkg/server/options/audit.go): Validate's
 * messages, the policy file (no file: nothing is recorded), the log backend (`-` is stdout, otherwise the rotated
 * file) and the webhook backend, each behind its mode; both receive every event.
 */
import { type AuditOptions, ConfigFileError } from "../config/mod.ts";
import { type PolicyRuleEvaluator, policyRuleEvaluator } from "./checker.ts";
import { eventJson } from "./event.ts";
import { formatEvent, type LogFormat } from "./format.ts";
import { loadPolicyFile } from "./policy.ts";
import { coalescingWriter, logLineWriter } from "./log-writer.ts";
import { type AuditMode, type AuditSink, auditSink, type BatchConfig } from "./sink.ts";
import { readAuditWebhookConfig, webhookDelivery } from "./webhook-backend.ts";
import { type TruncateConfig, truncateProblems, truncatingSink } from "./truncate.ts";

export interface Auditing {
  evaluate: PolicyRuleEvaluator;
  sink: AuditSink;
}

const MODES: readonly string[] = ["batch", "blocking", "blocking-strict"];
const FORMATS: readonly string[] = ["legacy", "json"];
/** knownGroupVersions of kube 1.26: only audit.k8s.io/v1 is left. */
const KNOWN_VERSIONS: readonly string[] = ["audit.k8s.io/v1"];

/** The auditing to wire into the chain, or undefined when no policy file or no backend is given. */
export async function buildAuditing(options: AuditOptions, log: (line: string) => void): Promise<Auditing | undefined> {
  const problems = validateAuditOptions(options);
  if (problems.length > 0) throw new ConfigFileError(problems.length === 1 ? problems[0]! : `[${problems.join(", ")}]`);
  if (!options.auditPolicyFile) return undefined;
  let evaluate: PolicyRuleEvaluator;
  try {
    evaluate = policyRuleEvaluator(await loadPolicyFile(options.auditPolicyFile));
  } catch (error) {
    throw new ConfigFileError(`loading audit policy file: ${(error as Error).message}`, { cause: error });
  }
  const sinks: AuditSink[] = [];
  const report = (backend: string) => (error: unknown) => log(`audit ${backend} backend: ${(error as Error).message}`);
  if (options.auditLogPath) {
    const format = options.auditLogFormat as LogFormat;
    const writer = coalescingWriter(logLineWriter(options.auditLogPath, {
      maxSizeMB: options.auditLogMaxsize,
      maxBackups: options.auditLogMaxbackup,
      maxAgeDays: options.auditLogMaxage,
      compress: options.auditLogCompress,
    }));
    const modeSink = auditSink(
      options.auditLogMode as AuditMode,
      logBatch(options),
      (event) => formatEvent(event, format),
      writer.append,
      report("log"),
    );
    const sink: AuditSink = {
      processEvent: (event) => modeSink.processEvent(event),
      shutdown: async () => {
        await modeSink.shutdown();
        writer.flush();
      },
    };
    sinks.push(options.auditLogTruncateEnabled ? truncatingSink(sink, logTruncate(options), report("log truncate")) : sink);
  }
  if (options.auditWebhookConfigFile) {
    const target = await readAuditWebhookConfig(options.auditWebhookConfigFile);
    const sink = auditSink(
      options.auditWebhookMode as AuditMode,
      webhookBatch(options),
      eventJson,
      webhookDelivery(target, options.auditWebhookInitialBackoffMs),
      report("webhook"),
    );
    sinks.push(
      options.auditWebhookTruncateEnabled ? truncatingSink(sink, webhookTruncate(options), report("webhook truncate")) : sink,
    );
  }
  if (sinks.length === 0) return undefined;
  return { evaluate, sink: unionSink(sinks) };
}

/** AuditLogOptions.Validate and AuditWebhookOptions.Validate, in kube's words; a backend without a target is not checked. */
export function validateAuditOptions(o: AuditOptions): string[] {
  const problems: string[] = [];
  if (o.auditLogPath) {
    problems.push(...batchProblems("log", o.auditLogMode, logBatch(o)));
    problems.push(...truncateProblems("log", logTruncate(o)), ...versionProblems(o.auditLogVersion));
    if (!FORMATS.includes(o.auditLogFormat)) {
      problems.push(`invalid audit log format ${o.auditLogFormat}, allowed formats are ${JSON.stringify(FORMATS.join(","))}`);
    }
    if (o.auditLogMaxage < 0) problems.push(`--audit-log-maxage ${o.auditLogMaxage} can't be a negative number`);
    if (o.auditLogMaxbackup < 0) problems.push(`--audit-log-maxbackup ${o.auditLogMaxbackup} can't be a negative number`);
    if (o.auditLogMaxsize < 0) problems.push(`--audit-log-maxsize ${o.auditLogMaxsize} can't be a negative number`);
  }
  if (o.auditWebhookConfigFile) {
    problems.push(
      ...batchProblems("webhook", o.auditWebhookMode, webhookBatch(o)),
      ...truncateProblems("webhook", webhookTruncate(o)),
      ...versionProblems(o.auditWebhookVersion),
    );
  }
  return problems;
}

/** validateBackendBatchOptions: the mode, then (batch mode only) the sizes and throttle. */
function batchProblems(plugin: string, mode: string, c: BatchConfig): string[] {
  if (!MODES.includes(mode)) return [`invalid audit ${plugin} mode ${mode}, allowed modes are ${JSON.stringify(MODES.join(","))}`];
  if (mode !== "batch") return [];
  if (c.bufferSize <= 0) return [`invalid audit batch ${plugin} buffer size ${c.bufferSize}, must be a positive number`];
  if (c.maxBatchSize <= 0) return [`invalid audit batch ${plugin} max batch size ${c.maxBatchSize}, must be a positive number`];
  if (c.throttleEnable && c.throttleQPS <= 0) {
    return [`invalid audit batch ${plugin} throttle QPS ${c.throttleQPS}, must be a positive number`];
  }
  if (c.throttleEnable && c.throttleBurst <= 0) {
    return [`invalid audit batch ${plugin} throttle burst ${c.throttleBurst}, must be a positive number`];
  }
  return [];
}

/** validateGroupVersionString: schema.ParseGroupVersion, then kube 1.26's known versions. */
function versionProblems(groupVersion: string): string[] {
  if (groupVersion.split("/").length > 2) return [`unexpected GroupVersion string: ${groupVersion}`];
  if (KNOWN_VERSIONS.includes(groupVersion)) return [];
  return [`invalid group version, allowed versions are [${KNOWN_VERSIONS.map((v) => JSON.stringify(v)).join(" ")}]`];
}

function logTruncate(o: AuditOptions): TruncateConfig {
  return { maxEventSize: o.auditLogTruncateMaxEventSize, maxBatchSize: o.auditLogTruncateMaxBatchSize };
}

function webhookTruncate(o: AuditOptions): TruncateConfig {
  return { maxEventSize: o.auditWebhookTruncateMaxEventSize, maxBatchSize: o.auditWebhookTruncateMaxBatchSize };
}

function logBatch(o: AuditOptions): BatchConfig {
  return {
    bufferSize: o.auditLogBatchBufferSize,
    maxBatchSize: o.auditLogBatchMaxSize,
    maxBatchWaitMs: o.auditLogBatchMaxWaitMs,
    throttleEnable: o.auditLogBatchThrottleEnable,
    throttleQPS: o.auditLogBatchThrottleQps,
    throttleBurst: o.auditLogBatchThrottleBurst,
  };
}

function webhookBatch(o: AuditOptions): BatchConfig {
  return {
    bufferSize: o.auditWebhookBatchBufferSize,
    maxBatchSize: o.auditWebhookBatchMaxSize,
    maxBatchWaitMs: o.auditWebhookBatchMaxWaitMs,
    throttleEnable: o.auditWebhookBatchThrottleEnable,
    throttleQPS: o.auditWebhookBatchThrottleQps,
    throttleBurst: o.auditWebhookBatchThrottleBurst,
  };
}

/** audit.Union: every backend gets the event; stored only if all stored it. */
function unionSink(sinks: AuditSink[]): AuditSink {
  if (sinks.length === 1) return sinks[0]!;
  return {
    processEvent: async (event) => (await Promise.all(sinks.map((sink) => sink.processEvent(event)))).every(Boolean),
    shutdown: async () => void (await Promise.all(sinks.map((sink) => sink.shutdown()))),
  };
}
