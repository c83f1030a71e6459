/** Status conditions set the way kube's controllers do: an unchanged status and reason leaves the condition alone. */
import { nowTimestamp } from "../../registry/object-meta.ts";

export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastUpdateTime?: string;
  lastProbeTime?: string;
}

export function findCondition(conditions: Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

/** Returns the conditions with `wanted` set; `withUpdateTime` adds lastUpdateTime (Deployment conditions carry it). */
export function setCondition(
  conditions: Condition[] | undefined,
  wanted: Omit<Condition, "lastTransitionTime" | "lastUpdateTime">,
  options: { withUpdateTime?: boolean } = {},
): Condition[] {
  const list = [...(conditions ?? [])];
  const index = list.findIndex((c) => c.type === wanted.type);
  const current = index >= 0 ? list[index] : undefined;
  if (current && current.status === wanted.status && current.reason === wanted.reason) return list;
  const now = nowTimestamp();
  const transition = current?.status === wanted.status ? current.lastTransitionTime : now;
  const next: Condition = options.withUpdateTime
    ? {
      type: wanted.type,
      status: wanted.status,
      lastUpdateTime: now,
      lastTransitionTime: transition,
      reason: wanted.reason,
      message: wanted.message,
    }
    : { ...wanted, lastTransitionTime: transition };
  if (index >= 0) list[index] = next;
  else list.push(next);
  return list;
}
