/**
 * The restricted Pod Security Standards checks of kube 1.26 (k8s.io/pod-security-admission/policy). From
 * policy v1.25, pods with spec.os.name=windows skip the Linux-only ones, as in kube.
 */
import type { KubeObject } from "../../core/api/types.ts";
import { allContainers, podSpec } from "../_match.ts";
import { badSeccompSetters, seccompSettersViolation } from "./baseline-checks.ts";
import { containersPhrase, joinQuote, pluralize, securityContext, settersPhrase, sortedSet, type Violation } from "./check-text.ts";

const RESTRICTED_VOLUMES = new Set([
  "configMap",
  "csi",
  "downwardAPI",
  "emptyDir",
  "ephemeral",
  "persistentVolumeClaim",
  "projected",
  "secret",
]);
const containers = (pod: KubeObject) => allContainers(podSpec(pod));

export const isWindowsPod = (pod: KubeObject) => (podSpec(pod).os as { name?: string } | undefined)?.name === "windows";

export function allowPrivilegeEscalation(pod: KubeObject): Violation | undefined {
  const names = containers(pod).filter((c) => securityContext(c).allowPrivilegeEscalation !== false).map((c) => c.name);
  return names.length
    ? {
      reason: "allowPrivilegeEscalation != false",
      detail: `${containersPhrase(names)} must set securityContext.allowPrivilegeEscalation=false`,
    }
    : undefined;
}

export function capabilitiesRestricted(pod: KubeObject): Violation | undefined {
  const capabilities = (c: Record<string, unknown>) => (securityContext(c).capabilities ?? {}) as { add?: string[]; drop?: string[] };
  const forbiddenAdds = (c: Record<string, unknown>) => (capabilities(c).add ?? []).filter((cap) => cap !== "NET_BIND_SERVICE");
  const missingDropAll = containers(pod).filter((c) => !(capabilities(c).drop ?? []).includes("ALL")).map((c) => c.name);
  const adding = containers(pod).filter((c) => forbiddenAdds(c).length > 0);
  const details = [
    ...(missingDropAll.length ? [`${containersPhrase(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`] : []),
    ...(adding.length
      ? [
        `${containersPhrase(adding.map((c) => c.name))} must not include ${
          joinQuote(sortedSet(adding.flatMap(forbiddenAdds)))
        } in securityContext.capabilities.add`,
      ]
      : []),
  ];
  return details.length ? { reason: "unrestricted capabilities", detail: details.join("; ") } : undefined;
}

export function restrictedVolumes(pod: KubeObject): Violation | undefined {
  const typeOf = (volume: Record<string, unknown>) =>
    Object.keys(volume).find((key) => key !== "name" && volume[key] !== null) ?? "unknown";
  const bad = (podSpec(pod).volumes ?? []).filter((volume) => !RESTRICTED_VOLUMES.has(typeOf(volume)));
  if (bad.length === 0) return;
  const types = sortedSet(bad.map(typeOf));
  return {
    reason: "restricted volume types",
    detail: `${pluralize("volume", "volumes", bad.length)} ${joinQuote(bad.map((v) => String(v.name)))} ${
      pluralize("uses", "use", bad.length)
    } ${pluralize("restricted volume type", "restricted volume types", types.length)} ${joinQuote(types)}`,
  };
}

/** Shared shape of runAsNonRoot and seccompProfile: explicit bad values first, then containers the pod leaves unset. */
function explicitOrImplicit(pod: KubeObject, setting: (holder: Record<string, unknown>) => "good" | "bad" | "unset") {
  const podSetting = setting(podSpec(pod));
  const explicit = containers(pod).filter((c) => setting(c) === "bad").map((c) => c.name);
  const implicit = podSetting === "good" ? [] : containers(pod).filter((c) => setting(c) === "unset").map((c) => c.name);
  return { podBad: podSetting === "bad", explicit, implicit };
}

export function runAsNonRoot(pod: KubeObject): Violation | undefined {
  const reason = "runAsNonRoot != true";
  const { podBad, explicit, implicit } = explicitOrImplicit(pod, (holder) => {
    const value = securityContext(holder).runAsNonRoot;
    return value === undefined || value === null ? "unset" : value === true ? "good" : "bad";
  });
  if (podBad || explicit.length) {
    return { reason, detail: `${settersPhrase(podBad, explicit)} must not set securityContext.runAsNonRoot=false` };
  }
  if (implicit.length) return { reason, detail: `pod or ${containersPhrase(implicit)} must set securityContext.runAsNonRoot=true` };
}

export function runAsUser(pod: KubeObject): Violation | undefined {
  const root = (holder: Record<string, unknown>) => securityContext(holder).runAsUser === 0;
  const podBad = root(podSpec(pod));
  const bad = containers(pod).filter(root).map((c) => c.name);
  if (!podBad && bad.length === 0) return;
  return { reason: "runAsUser=0", detail: `${settersPhrase(podBad, bad)} must not set runAsUser=0` };
}

export function seccompProfileRestricted(pod: KubeObject): Violation | undefined {
  const explicitBad = seccompSettersViolation(badSeccompSetters(pod));
  if (explicitBad) return explicitBad;
  const { implicit } = explicitOrImplicit(pod, (holder) => (securityContext(holder).seccompProfile ? "good" : "unset"));
  if (implicit.length) {
    return {
      reason: "seccompProfile",
      detail: `pod or ${containersPhrase(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
    };
  }
}
