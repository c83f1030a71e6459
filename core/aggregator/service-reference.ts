/** The parts of an APIService the aggregator acts on, read from its stored form (spec 2.4). */
import { Buffer } from "node:buffer";
import type { KubeObject } from "../api/types.ts";

export interface ServiceReference {
  namespace: string;
  name: string;
  /** Defaults to 443. */
  port: number;
}

export interface APIServiceSpec {
  group: string;
  version: string;
  groupPriorityMinimum: number;
  versionPriority: number;
  /** Absent for local APIServices: the group/version is served by this server. */
  service?: ServiceReference;
  /** PEM, decoded from the base64 of spec.caBundle. */
  caBundle?: string;
  insecureSkipTLSVerify: boolean;
}

export interface APIServiceCondition {
  type: string;
  status: "True" | "False" | "Unknown";
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export function apiServiceSpec(obj: KubeObject): APIServiceSpec {
  const spec = (obj.spec ?? {}) as Record<string, unknown>;
  const service = spec.service as { namespace?: string; name?: string; port?: number } | null | undefined;
  const caBundle = typeof spec.caBundle === "string" && spec.caBundle !== ""
    ? Buffer.from(spec.caBundle, "base64").toString("utf8")
    : undefined;
  return {
    group: String(spec.group ?? ""),
    version: String(spec.version ?? ""),
    groupPriorityMinimum: Number(spec.groupPriorityMinimum ?? 0),
    versionPriority: Number(spec.versionPriority ?? 0),
    service: service ? { namespace: service.namespace ?? "", name: service.name ?? "", port: service.port ?? 443 } : undefined,
    caBundle,
    insecureSkipTLSVerify: spec.insecureSkipTLSVerify === true,
  };
}

export function conditionsOf(obj: KubeObject): APIServiceCondition[] {
  return ((obj.status as { conditions?: APIServiceCondition[] } | undefined)?.conditions ?? []).map((condition) => ({ ...condition }));
}

export function isAvailable(obj: KubeObject): boolean {
  return conditionsOf(obj).some((condition) => condition.type === "Available" && condition.status === "True");
}
