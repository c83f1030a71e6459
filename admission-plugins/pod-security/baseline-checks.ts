/**
 * The baseline Pod Security Standards checks of kube 1.26 (k8s.io/pod-security-admission/policy), each
 * returning kube's forbidden reason and detail, or nothing when the pod passes.
 */
import type { KubeObject } from "../../core/api/types.ts";
import { allContainers, podSpec } from "../_match.ts";
import { containersPhrase, joinQuote, pluralize, securityContext, settersPhrase, sortedSet, type Violation } from "./check-text.ts";

const BASELINE_CAPABILITIES = new Set([
  "AUDIT_WRITE",
  "CHOWN",
  "DAC_OVERRIDE",
  "FOWNER",
  "FSETID",
  "KILL",
  "MKNOD",
  "NET_BIND_SERVICE",
  "SETFCAP",
  "SETGID",
  "SETPCAP",
  "SETUID",
  "SYS_CHROOT",
]);
const SELINUX_TYPES = new Set(["", "container_t", "container_init_t", "container_kvm_t"]);
const SAFE_SYSCTLS = new Set([
  "kernel.shm_rmid_forced",
  "net.ipv4.ip_local_port_range",
  "net.ipv4.tcp_syncookies",
  "net.ipv4.ping_group_range",
  "net.ipv4.ip_unprivileged_port_start",
]);
const APPARMOR_PREFIX = "container.apparmor.security.beta.kubernetes.io/";
const podContext = (pod: KubeObject) => securityContext(podSpec(pod));
const containers = (pod: KubeObject) => allContainers(podSpec(pod));

export function appArmorProfile(pod: KubeObject): Violation | undefined {
  const allowed = (profile: string) => profile === "" || profile === "runtime/default" || profile.startsWith("localhost/");
  const bad = Object.entries(pod.metadata?.annotations ?? {}).filter(([key, value]) => key.startsWith(APPARMOR_PREFIX) && !allowed(value));
  if (bad.length === 0) return;
  return {
    reason: pluralize("forbidden AppArmor profile", "forbidden AppArmor profiles", bad.length),
    detail: bad.map(([key, value]) => `${key}=${JSON.stringify(value)}`).sort().join(", "),
  };
}

export function capabilitiesBaseline(pod: KubeObject): Violation | undefined {
  const added = (c: Record<string, unknown>) =>
    ((securityContext(c).capabilities as { add?: string[] } | undefined)?.add ?? []).filter((cap) => !BASELINE_CAPABILITIES.has(cap));
  const bad = containers(pod).filter((c) => added(c).length > 0);
  if (bad.length === 0) return;
  return {
    reason: "non-default capabilities",
    detail: `${containersPhrase(bad.map((c) => c.name))} must not include ${
      joinQuote(sortedSet(bad.flatMap(added)))
    } in securityContext.capabilities.add`,
  };
}

export function hostNamespaces(pod: KubeObject): Violation | undefined {
  const spec = podSpec(pod);
  const set = ["hostNetwork", "hostPID", "hostIPC"].filter((field) => spec[field] === true);
  return set.length ? { reason: "host namespaces", detail: set.map((field) => `${field}=true`).join(", ") } : undefined;
}

export function hostPathVolumes(pod: KubeObject): Violation | undefined {
  const names = (podSpec(pod).volumes ?? []).filter((v) => v.hostPath !== undefined && v.hostPath !== null).map((v) => String(v.name));
  return names.length
    ? { reason: "hostPath volumes", detail: `${pluralize("volume", "volumes", names.length)} ${joinQuote(names)}` }
    : undefined;
}

export function hostPorts(pod: KubeObject): Violation | undefined {
  const portsOf = (c: { ports?: { hostPort?: number }[] }) => (c.ports ?? []).filter((p) => p.hostPort).map((p) => String(p.hostPort));
  const bad = containers(pod).filter((c) => portsOf(c).length > 0);
  if (bad.length === 0) return;
  const ports = sortedSet(bad.flatMap(portsOf));
  return {
    reason: "hostPort",
    detail: `${containersPhrase(bad.map((c) => c.name))} ${pluralize("uses", "use", bad.length)} ${
      pluralize("hostPort", "hostPorts", ports.length)
    } ${ports.join(", ")}`,
  };
}

export function privileged(pod: KubeObject): Violation | undefined {
  const names = containers(pod).filter((c) => securityContext(c).privileged === true).map((c) => c.name);
  return names.length
    ? { reason: "privileged", detail: `${containersPhrase(names)} must not set securityContext.privileged=true` }
    : undefined;
}

export function procMount(pod: KubeObject): Violation | undefined {
  const mountOf = (c: Record<string, unknown>) => securityContext(c).procMount as string | undefined;
  const bad = containers(pod).filter((c) => mountOf(c) !== undefined && mountOf(c) !== "Default");
  if (bad.length === 0) return;
  return {
    reason: "procMount",
    detail: `${containersPhrase(bad.map((c) => c.name))} must not set securityContext.procMount to ${
      joinQuote(sortedSet(bad.map((c) => mountOf(c)!)))
    }`,
  };
}

export function seLinuxOptions(pod: KubeObject): Violation | undefined {
  const badTypes: string[] = [];
  let setUser = false;
  let setRole = false;
  const invalid = (holder: Record<string, unknown>) => {
    const options = securityContext(holder).seLinuxOptions as { type?: string; user?: string; role?: string } | undefined;
    if (!options) return false;
    const badType = !SELINUX_TYPES.has(options.type ?? "");
    if (badType) badTypes.push(options.type!);
    setUser ||= Boolean(options.user);
    setRole ||= Boolean(options.role);
    return badType || Boolean(options.user) || Boolean(options.role);
  };
  const podBad = invalid(podSpec(pod));
  const bad = containers(pod).filter(invalid).map((c) => c.name);
  if (!podBad && bad.length === 0) return;
  const types = sortedSet(badTypes);
  // kube only lists user/role next to a bad type (its formatting quirk, kept for identical messages).
  const data = types.length
    ? [
      `${pluralize("type", "types", types.length)} ${joinQuote(types)}`,
      ...(setUser ? ["user may not be set"] : []),
      ...(setRole ? ["role may not be set"] : []),
    ]
    : [];
  return {
    reason: "seLinuxOptions",
    detail: `${settersPhrase(podBad, bad)} set forbidden securityContext.seLinuxOptions: ${data.join("; ")}`,
  };
}

const validSeccomp = (profile: unknown) => ["RuntimeDefault", "Localhost"].includes((profile as { type?: string }).type ?? "");

/** Explicitly set seccomp types other than RuntimeDefault/Localhost, shared by the baseline and restricted checks. */
export function badSeccompSetters(pod: KubeObject): { podBad: boolean; containers: string[]; values: string[] } {
  const values: string[] = [];
  const explicitBad = (holder: Record<string, unknown>) => {
    const profile = securityContext(holder).seccompProfile as { type?: string } | undefined;
    if (!profile || validSeccomp(profile)) return false;
    values.push(profile.type ?? "");
    return true;
  };
  const podBad = explicitBad(podSpec(pod));
  return { podBad, containers: containers(pod).filter(explicitBad).map((c) => c.name), values: sortedSet(values) };
}

export function seccompSettersViolation(setters: ReturnType<typeof badSeccompSetters>): Violation | undefined {
  if (!setters.podBad && setters.containers.length === 0) return;
  return {
    reason: "seccompProfile",
    detail: `${settersPhrase(setters.podBad, setters.containers)} must not set securityContext.seccompProfile.type to ${
      joinQuote(setters.values)
    }`,
  };
}

export const seccompProfileBaseline = (pod: KubeObject) => seccompSettersViolation(badSeccompSetters(pod));

export function sysctls(pod: KubeObject): Violation | undefined {
  const names = ((podContext(pod).sysctls ?? []) as { name: string }[]).map((s) => s.name).filter((name) => !SAFE_SYSCTLS.has(name));
  return names.length ? { reason: "forbidden sysctls", detail: names.join(", ") } : undefined;
}

export function windowsHostProcess(pod: KubeObject): Violation | undefined {
  const hostProcess = (holder: Record<string, unknown>) =>
    (securityContext(holder).windowsOptions as { hostProcess?: boolean } | undefined)?.hostProcess === true;
  const podBad = hostProcess(podSpec(pod));
  const bad = containers(pod).filter(hostProcess).map((c) => c.name);
  if (!podBad && bad.length === 0) return;
  return { reason: "hostProcess", detail: `${settersPhrase(podBad, bad)} must not set securityContext.windowsOptions.hostProcess=true` };
}
