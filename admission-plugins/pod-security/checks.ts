/**
 * The Pod Security Standards checks (k8s.io/pod-security-admission policy, 1.25 GA), the common ones: each
 * returns kube's forbidden reason and detail, or nothing. Baseline checks apply at baseline and restricted.
 */
import type { KubeObject } from "../../core/api/types.ts";
import { allContainers, type Container, podSpec } from "../_match.ts";

export type Level = "privileged" | "baseline" | "restricted";
export interface Violation {
  reason: string;
  detail: string;
}
type Check = (pod: KubeObject) => Violation | undefined;

const BASELINE_CAPABILITIES = new Set(["AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "KILL", "MKNOD", "NET_BIND_SERVICE", "SETFCAP", "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT"]);
const RESTRICTED_VOLUMES = new Set(["configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim", "projected", "secret"]);

const quoted = (names: string[]) => names.map((n) => JSON.stringify(n)).join(", ");
const containersText = (names: string[], singular: string, plural: string) => `${names.length === 1 ? "container" : "containers"} ${quoted(names)} ${names.length === 1 ? singular : plural}`;
const context = (c: Container) => (c.securityContext ?? {}) as Record<string, unknown>;
const podContext = (pod: KubeObject) => (podSpec(pod).securityContext ?? {}) as Record<string, unknown>;
const offending = (pod: KubeObject, test: (c: Container) => boolean) => allContainers(podSpec(pod)).filter(test).map((c) => c.name);

const BASELINE: [string, Check][] = [
  ["capabilities_baseline", (pod) => {
    const bad = allContainers(podSpec(pod)).flatMap((c) => ((context(c).capabilities as { add?: string[] } | undefined)?.add ?? []).filter((cap) => !BASELINE_CAPABILITIES.has(cap)).map((cap) => ({ c: c.name, cap })));
    if (bad.length === 0) return;
    const names = [...new Set(bad.map((b) => b.c))];
    return { reason: "non-default capabilities", detail: `${containersText(names, "must not include", "must not include")} ${quoted([...new Set(bad.map((b) => b.cap))])} in securityContext.capabilities.add` };
  }],
  ["hostNamespaces", (pod) => {
    const spec = podSpec(pod);
    const set = ["hostNetwork", "hostPID", "hostIPC"].filter((field) => spec[field] === true);
    return set.length ? { reason: "host namespaces", detail: set.map((f) => `${f}=true`).join(", ") } : undefined;
  }],
  ["hostPathVolumes", (pod) => {
    const names = (podSpec(pod).volumes ?? []).filter((v) => v.hostPath !== undefined).map((v) => String(v.name));
    return names.length ? { reason: "hostPath volumes", detail: `${names.length === 1 ? "volume" : "volumes"} ${quoted(names)}` } : undefined;
  }],
  ["hostPorts", (pod) => {
    const users = allContainers(podSpec(pod)).filter((c) => (c.ports ?? []).some((p) => p.hostPort));
    if (users.length === 0) return;
    const ports = users.flatMap((c) => (c.ports ?? []).filter((p) => p.hostPort).map((p) => String(p.hostPort)));
    return { reason: "hostPort", detail: `${containersText(users.map((c) => c.name), "uses", "use")} ${ports.length === 1 ? "hostPort" : "hostPorts"} ${ports.join(", ")}` };
  }],
  ["privileged", (pod) => {
    const names = offending(pod, (c) => context(c).privileged === true);
    return names.length ? { reason: "privileged", detail: `${containersText(names, "must not set", "must not set")} securityContext.privileged=true` } : undefined;
  }],
];

const RESTRICTED: [string, Check][] = [
  ["allowPrivilegeEscalation", (pod) => {
    const names = offending(pod, (c) => context(c).allowPrivilegeEscalation !== false);
    return names.length ? { reason: "allowPrivilegeEscalation != false", detail: `${containersText(names, "must set", "must set")} securityContext.allowPrivilegeEscalation=false` } : undefined;
  }],
  ["capabilities_restricted", (pod) => {
    const names = offending(pod, (c) => !((context(c).capabilities as { drop?: string[] } | undefined)?.drop ?? []).includes("ALL"));
    return names.length ? { reason: "unrestricted capabilities", detail: `${containersText(names, "must set", "must set")} securityContext.capabilities.drop=["ALL"]` } : undefined;
  }],
  ["restrictedVolumes", (pod) => {
    const bad = (podSpec(pod).volumes ?? []).map((v) => ({ name: String(v.name), type: Object.keys(v).find((k) => k !== "name") ?? "" })).filter((v) => v.type && !RESTRICTED_VOLUMES.has(v.type));
    if (bad.length === 0) return;
    const types = [...new Set(bad.map((v) => v.type))];
    return { reason: "restricted volume types", detail: `${bad.length === 1 ? "volume" : "volumes"} ${quoted(bad.map((v) => v.name))} ${bad.length === 1 ? "uses" : "use"} ${types.length === 1 ? "restricted volume type" : "restricted volume types"} ${quoted(types)}` };
  }],
  ["runAsNonRoot", (pod) => {
    const podSet = podContext(pod).runAsNonRoot === true;
    const names = offending(pod, (c) => context(c).runAsNonRoot === false || (!podSet && context(c).runAsNonRoot !== true));
    return names.length ? { reason: "runAsNonRoot != true", detail: `pod or ${containersText(names, "must set", "must set")} securityContext.runAsNonRoot=true` } : undefined;
  }],
  ["seccompProfile_restricted", (pod) => {
    const allowed = (p: unknown) => ["RuntimeDefault", "Localhost"].includes((p as { type?: string } | undefined)?.type ?? "");
    const podSet = allowed(podContext(pod).seccompProfile);
    const names = offending(pod, (c) => context(c).seccompProfile !== undefined ? !allowed(context(c).seccompProfile) : !podSet);
    return names.length ? { reason: "seccompProfile", detail: `pod or ${containersText(names, "must set", "must set")} securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"` } : undefined;
  }],
];

/** Violations in kube's order: baseline checks, then restricted ones, each by check id. */
export function evaluate(level: Level, pod: KubeObject): Violation[] {
  if (level === "privileged") return [];
  const checks = level === "restricted" ? [...BASELINE, ...RESTRICTED] : BASELINE;
  return checks.map(([, check]) => check(pod)).filter((v): v is Violation => v !== undefined);
}
