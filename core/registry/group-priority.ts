/**
 * The order of API groups and versions in discovery, as kube-aggregator 1.26 sorts its APIServices:
 * groups by priority (ties by APIService name "<version>.<group>"), versions by priority, then kube-aware version order.
 */
import { compareByteOrder } from "../api/byte-order.ts";

export interface VersionPriority {
  /** Higher comes first among groups (APIService groupPriorityMinimum). */
  group: number;
  /** Higher comes first within a group (APIService versionPriority). */
  version: number;
}

export interface GroupVersionEntry {
  group: string;
  version: string;
  priority: VersionPriority;
}

export interface OrderedGroup {
  name: string;
  /** Most preferred first. */
  versions: string[];
}

/** What the CRD registration controller gives every custom resource group/version. */
export const CUSTOM_RESOURCE_PRIORITY: VersionPriority = { group: 1000, version: 100 };

/** The aggregator's own group, listed before every other named group. */
export const AGGREGATOR_GROUP = "apiregistration.k8s.io";

// kube-apiserver 1.26's apiVersionPriorities (cmd/kube-apiserver/app/aggregator.go).
const BUILT_IN_PRIORITIES: Record<string, [group: number, version: number]> = {
  v1: [18000, 1],
  "apps/v1": [17800, 15],
  "events.k8s.io/v1": [17750, 15],
  "events.k8s.io/v1beta1": [17750, 5],
  "authentication.k8s.io/v1": [17700, 15],
  "authentication.k8s.io/v1beta1": [17700, 9],
  "authentication.k8s.io/v1alpha1": [17700, 1],
  "authorization.k8s.io/v1": [17600, 15],
  "autoscaling/v1": [17500, 15],
  "autoscaling/v2": [17500, 30],
  "autoscaling/v2beta1": [17500, 9],
  "autoscaling/v2beta2": [17500, 1],
  "batch/v1": [17400, 15],
  "batch/v1beta1": [17400, 9],
  "certificates.k8s.io/v1": [17300, 15],
  "networking.k8s.io/v1": [17200, 15],
  "networking.k8s.io/v1alpha1": [17200, 1],
  "policy/v1": [17100, 15],
  "policy/v1beta1": [17100, 9],
  "rbac.authorization.k8s.io/v1": [17000, 15],
  "storage.k8s.io/v1": [16800, 15],
  "storage.k8s.io/v1beta1": [16800, 9],
  "storage.k8s.io/v1alpha1": [16800, 1],
  "apiextensions.k8s.io/v1": [16700, 15],
  "admissionregistration.k8s.io/v1": [16700, 15],
  "admissionregistration.k8s.io/v1alpha1": [16700, 9],
  "scheduling.k8s.io/v1": [16600, 15],
  "coordination.k8s.io/v1": [16500, 15],
  "node.k8s.io/v1": [16300, 15],
  "discovery.k8s.io/v1": [16200, 15],
  "flowcontrol.apiserver.k8s.io/v1beta3": [16100, 18],
  "flowcontrol.apiserver.k8s.io/v1beta2": [16100, 15],
  "internal.apiserver.k8s.io/v1alpha1": [16000, 9],
  "resource.k8s.io/v1alpha1": [15900, 9],
};

/** kube-apiserver's priority for a built-in group/version, undefined for others. */
export function builtInPriority(group: string, version: string): VersionPriority | undefined {
  const found = BUILT_IN_PRIORITIES[group === "" ? version : `${group}/${version}`];
  return found && { group: found[0], version: found[1] };
}

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;
const STABILITY = { alpha: 0, beta: 1, ga: 2 } as const;

/** Negative when `a` is preferred over `b`: GA before beta before alpha, then higher major, then higher minor. */
export function compareKubeAwareVersions(a: string, b: string): number {
  const matchA = KUBE_VERSION.exec(a);
  const matchB = KUBE_VERSION.exec(b);
  if (!matchA || !matchB) {
    if (matchA) return -1;
    if (matchB) return 1;
    return compareByteOrder(a, b);
  }
  const stabilityA = STABILITY[(matchA[2] as "alpha" | "beta" | undefined) ?? "ga"];
  const stabilityB = STABILITY[(matchB[2] as "alpha" | "beta" | undefined) ?? "ga"];
  if (stabilityA !== stabilityB) return stabilityB - stabilityA;
  const majorDelta = Number(matchB[1]) - Number(matchA[1]);
  if (majorDelta !== 0) return majorDelta;
  return Number(matchB[3] ?? 0) - Number(matchA[3] ?? 0);
}

function compareEntries(a: GroupVersionEntry, b: GroupVersionEntry): number {
  if (a.priority.group !== b.priority.group) return b.priority.group - a.priority.group;
  const nameA = `${a.version}.${a.group}`;
  const nameB = `${b.version}.${b.group}`;
  return nameA < nameB ? -1 : nameA > nameB ? 1 : 0;
}

function compareVersionsInGroup(a: GroupVersionEntry, b: GroupVersionEntry): number {
  if (a.priority.version !== b.priority.version) return b.priority.version - a.priority.version;
  return compareKubeAwareVersions(a.version, b.version);
}

/** Named groups in discovery order, each with its versions most preferred first. */
export function orderGroups(entries: readonly GroupVersionEntry[]): OrderedGroup[] {
  const buckets = new Map<string, GroupVersionEntry[]>();
  for (const entry of [...entries].sort(compareEntries)) {
    const bucket = buckets.get(entry.group) ?? [];
    buckets.set(entry.group, [...bucket, entry]);
  }
  const ordered = [...buckets.entries()].map(([name, bucket]) => ({
    name,
    versions: bucket.sort(compareVersionsInGroup).map((entry) => entry.version),
  }));
  const aggregator = ordered.filter((group) => group.name === AGGREGATOR_GROUP);
  return [...aggregator, ...ordered.filter((group) => group.name !== AGGREGATOR_GROUP)];
}
