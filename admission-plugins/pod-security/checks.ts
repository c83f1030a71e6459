/**
 * The Pod Security Standards evaluator (kube 1.26's k8s.io/pod-security-admission policy registry): which
 * checks apply to a level and policy version, in kube's order (baseline check IDs sorted, then restricted ones),
 * a restricted check replacing the baseline check it overrides.
 */
import type { KubeObject } from "../../core/api/types.ts";
import * as baseline from "./baseline-checks.ts";
import type { Violation } from "./check-text.ts";
import * as restricted from "./restricted-checks.ts";

export type { Violation };
export type Level = "privileged" | "baseline" | "restricted";
/** The minor version of a v1.x policy; Infinity stands for `latest`. */
export type PolicyVersion = number;

interface Check {
  id: string;
  level: "baseline" | "restricted";
  /** First policy version (minor of v1.x) the check exists in. */
  since: number;
  /** The baseline check this one replaces at the restricted level. */
  overrides?: string;
  run(pod: KubeObject, version: number): Violation | undefined;
}

/** From v1.25 the Linux-only restricted checks pass Windows pods. */
const unlessWindows = (run: (pod: KubeObject) => Violation | undefined) =>
(
  pod: KubeObject,
  version: number,
) => (version >= 25 && restricted.isWindowsPod(pod) ? undefined : run(pod));

// Policies before v1.19 checked seccomp through annotations; kubun applies the field checks to every version.
const CHECKS: Check[] = [
  { id: "appArmorProfile", level: "baseline", since: 0, run: baseline.appArmorProfile },
  { id: "capabilities_baseline", level: "baseline", since: 0, run: baseline.capabilitiesBaseline },
  { id: "hostNamespaces", level: "baseline", since: 0, run: baseline.hostNamespaces },
  { id: "hostPathVolumes", level: "baseline", since: 0, run: baseline.hostPathVolumes },
  { id: "hostPorts", level: "baseline", since: 0, run: baseline.hostPorts },
  { id: "privileged", level: "baseline", since: 0, run: baseline.privileged },
  { id: "procMount", level: "baseline", since: 0, run: baseline.procMount },
  { id: "seLinuxOptions", level: "baseline", since: 0, run: baseline.seLinuxOptions },
  { id: "seccompProfile_baseline", level: "baseline", since: 0, run: baseline.seccompProfileBaseline },
  { id: "sysctls", level: "baseline", since: 0, run: baseline.sysctls },
  { id: "windowsHostProcess", level: "baseline", since: 0, run: baseline.windowsHostProcess },
  { id: "allowPrivilegeEscalation", level: "restricted", since: 8, run: unlessWindows(restricted.allowPrivilegeEscalation) },
  {
    id: "capabilities_restricted",
    level: "restricted",
    since: 22,
    overrides: "capabilities_baseline",
    run: unlessWindows(restricted.capabilitiesRestricted),
  },
  { id: "restrictedVolumes", level: "restricted", since: 0, run: restricted.restrictedVolumes },
  { id: "runAsNonRoot", level: "restricted", since: 0, run: restricted.runAsNonRoot },
  { id: "runAsUser", level: "restricted", since: 23, run: restricted.runAsUser },
  {
    id: "seccompProfile_restricted",
    level: "restricted",
    since: 19,
    overrides: "seccompProfile_baseline",
    run: unlessWindows(restricted.seccompProfileRestricted),
  },
];

/** Every violation of `level` at policy `version`, in kube's order. */
export function evaluate(level: Level, version: PolicyVersion, pod: KubeObject): Violation[] {
  if (level === "privileged") return [];
  const applicable = CHECKS.filter((check) => check.since <= version && (level === "restricted" || check.level === "baseline"));
  const overridden = new Set(level === "restricted" ? applicable.map((check) => check.overrides) : []);
  return applicable.filter((check) => !overridden.has(check.id)).map((check) => check.run(pod, version)).filter((v): v is Violation =>
    v !== undefined
  );
}
