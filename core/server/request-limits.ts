/**
 * Builds the overload filter the flags ask for (kube's ServerRunOptions.Validate and BuildPriorityAndFairness):
 * API Priority and Fairness over the sum of both in-flight limits, or kube's max-in-flight limits without it.
 */
import type { Registry as MetricsRegistry } from "prom-client";
import { FlowControl } from "../flowcontrol/mod.ts";
import type { Catalog } from "../registry/catalog.ts";
import type { Registry } from "../registry/registry.ts";
import type { Storage } from "../storage/storage.ts";
import { maxInFlightLimiter, priorityAndFairnessLimiter, type RequestLimiter } from "./filters/flow-control.ts";

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
  metricsRegistry: MetricsRegistry,
  storage: Storage,
): Promise<{ limiter?: RequestLimiter; flowControl?: FlowControl }> {
  if (!flags.enablePriorityAndFairness) {
    return { limiter: maxInFlightLimiter({ readOnly: flags.maxRequestsInflight, mutating: flags.maxMutatingRequestsInflight }) };
  }
  const flowControl = await FlowControl.start(registry, catalog, {
    serverConcurrencyLimit: flags.maxRequestsInflight + flags.maxMutatingRequestsInflight,
    queueWaitLimitMs: queueWaitLimitMs(flags.requestTimeoutMs),
    metricsRegistry,
    storage,
  });
  return { limiter: priorityAndFairnessLimiter(flowControl), flowControl };
}
