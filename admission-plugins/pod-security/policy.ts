/**
 * Which level and version each mode (enforce, audit, warn) applies in a namespace: its
 * pod-security.kubernetes.io/<mode>[-version] labels over the configured defaults (kube's PolicyToEvaluate).
 * Versions: `latest` or `v1.<minor>`; every version from v1.23 on checks the same as latest (the checks
 * changed last in v1.23 in kube 1.26). An invalid level fails closed to restricted, an invalid version to latest.
 */
import type { Level, PolicyVersion } from "./checks.ts";

export const MODES = ["enforce", "audit", "warn"] as const;
export type Mode = (typeof MODES)[number];
export interface LevelVersion {
  level: Level;
  version: PolicyVersion;
}
export type NamespacePolicy = Record<Mode, LevelVersion>;

export const LABEL_PREFIX = "pod-security.kubernetes.io/";
const LEVELS = new Set<string>(["privileged", "baseline", "restricted"]);

export const parseLevel = (text: string): Level | undefined => (LEVELS.has(text) ? (text as Level) : undefined);

/** `latest` → Infinity, `v1.25` → 25, anything else → undefined. */
export function parseVersion(text: string): PolicyVersion | undefined {
  if (text === "latest") return Infinity;
  const match = /^v1\.(0|[1-9][0-9]*)$/.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** kube's Policy String(): `restricted:latest`, `baseline:v1.24`. */
export const describe = ({ level, version }: LevelVersion) => `${level}:${version === Infinity ? "latest" : `v1.${version}`}`;

export function policyFromLabels(labels: Record<string, string>, defaults: NamespacePolicy): NamespacePolicy {
  const policy = { ...defaults };
  for (const mode of MODES) {
    const levelLabel = labels[`${LABEL_PREFIX}${mode}`];
    const versionLabel = labels[`${LABEL_PREFIX}${mode}-version`];
    const level = levelLabel === undefined ? defaults[mode].level : parseLevel(levelLabel) ?? "restricted";
    // An explicit level without a version label means latest, not the default version.
    const fallbackVersion = levelLabel !== undefined && parseLevel(levelLabel) ? Infinity : defaults[mode].version;
    const version = versionLabel === undefined ? fallbackVersion : parseVersion(versionLabel) ?? Infinity;
    policy[mode] = { level, version };
  }
  return policy;
}
