/**
 * Builds the overload filter the flags ask for (kube's ServerRunOptions.Validate and BuildPriorityAndFairness):
 * API Priority and Fairness over the sum of both in-flight limits, or kube's max-in-flight limits without it.
 */
import { FlowControl } from "../flowcontrol/mod.ts";
import type { Catalog } from "../registry/catalog.ts";
import type { Registry } from "../registry/registry.ts";
import type { Storage } from "../storage/storage.ts";
import type { RequestInfo } from "./request-info.ts";
import { maxInFlightLimiter, priorityAndFairnessLimiter, type RequestLimiter } from "./filters/flow-control.ts";
import { metricLabels } from "./metric-labels.ts";
import type { ApiMetrics } from "./metrics.ts";

export interface RequestLimitFlags {
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  enablePriorityAndFairness: boolean;
  /** --request-timeout. */
  requestTimeoutMs: number;
}

/** How long APF lets a request wait in a queue: a quarter of --request-timeout (kube's BuildPriorityAndFairness). */
export function queueWaitLimitMs(requestTimeoutMs: number): number {
  return requestTimeoutMs / 4;
}

/** kube's ServerRunOptions.Validate and BuildPriorityAndFairness checks, as start-up errors. */
export function checkRequestLimitFlags(flags: RequestLimitFlags): void {
  if (flags.maxRequestsInflight < 0) throw new Error("--max-requests-inflight can not be negative value");
  if (flags.maxMutatingRequestsInflight < 0) throw new Error("--max-mutating-requests-inflight can not be negative value");
  if (flags.enablePriorityAndFairness && flags.maxRequestsInflight + flags.maxMutatingRequestsInflight <= 0) {
    throw new Error(
      `invalid configuration: MaxRequestsInFlight=${flags.maxRequestsInflight} and MaxMutatingRequestsInFlight=${flags.maxMutatingRequestsInflight}; parallelism must be at least 1`,
    );
  }
}

export async function startRequestLimits(
  flags: RequestLimitFlags,
  registry: Registry,
  catalog: Catalog,
  metrics: ApiMetrics,
  storage: Storage,
): Promise<{ limiter?: RequestLimiter; flowControl?: FlowControl }> {
  // kube's filters record each 429 they answer (RecordRequestTermination).
  const terminated = (request: Request, info: RequestInfo) => metrics.terminated(metricLabels(info, request, new URL(request.url)), 429);
  if (!flags.enablePriorityAndFairness) {
    const limits = { readOnly: flags.maxRequestsInflight, mutating: flags.maxMutatingRequestsInflight };
    return { limiter: maxInFlightLimiter(limits, terminated) };
  }
  const flowControl = await FlowControl.start(registry, catalog, {
    serverConcurrencyLimit: flags.maxRequestsInflight + flags.maxMutatingRequestsInflight,
    queueWaitLimitMs: queueWaitLimitMs(flags.requestTimeoutMs),
    metricsRegistry: metrics.registry,
    storage,
  });
  return { limiter: priorityAndFairnessLimiter(flowControl, terminated), flowControl };
}
