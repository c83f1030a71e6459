/**
 * Requests to deprecated API versions (k8s.io/apiserver endpoints/deprecation): kube's WarningMessage, built from
 * the types' prerelease-lifecycle-gen facts (APILifecycleDeprecated/Removed/Replacement), and the removed release
 * for the `k8s.io/removed-release` audit annotation and the apiserver_requested_deprecated_apis gauge.
 * kube-apiserver 1.26 is the current release, so a version deprecated in 1.26 or before counts.
 */
import type { ResourceType } from "../api/resource-type.ts";
import type { HandlerContext } from "./handlers/context.ts";
import type { ApiMetrics } from "./metrics.ts";
import type { RequestInfo } from "./request-info.ts";

interface Lifecycle {
  deprecated: string;
  /** Absent when the type names no APILifecycleRemoved (core/v1 ComponentStatus). */
  removed?: string;
  /** APILifecycleReplacement as "<group/version> <Kind>"; absent when the type names none. */
  replacement?: string;
}

const CURRENT_RELEASE = [1, 26] as const;

/** Facts by "<group/version> <Kind>" of the versions kubun serves that have them. */
const LIFECYCLES: Readonly<Record<string, Lifecycle>> = {
  "flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema": {
    deprecated: "1.26",
    removed: "1.29",
    replacement: "flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema",
  },
  "flowcontrol.apiserver.k8s.io/v1beta2 PriorityLevelConfiguration": {
    deprecated: "1.26",
    removed: "1.29",
    replacement: "flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration",
  },
  "policy/v1beta1 PodSecurityPolicy": { deprecated: "1.21", removed: "1.25" },
  "v1 ComponentStatus": { deprecated: "1.19" },
  "authentication.k8s.io/v1beta1 TokenReview": {
    deprecated: "1.19",
    removed: "1.22",
    replacement: "authentication.k8s.io/v1 TokenReview",
  },
};

export interface Deprecation {
  /** WarningMessage's text for the Warning: 299 header. */
  warning: string;
  /** "<major>.<minor>" the version stops being served in; "" when the type names none (deprecation.RemovedRelease). */
  removedRelease: string;
}

function isAtOrBefore(release: string, current: readonly [number, number]): boolean {
  const [major, minor] = release.split(".").map(Number) as [number, number];
  return major < current[0] || (major === current[0] && minor <= current[1]);
}

/** IsDeprecated and WarningMessage for a kind served at group/version; undefined when it is not deprecated. */
export function deprecationOf(group: string, version: string, kind: string): Deprecation | undefined {
  const name = `${group === "" ? version : `${group}/${version}`} ${kind}`;
  const lifecycle = Object.hasOwn(LIFECYCLES, name) ? LIFECYCLES[name] : undefined;
  if (!lifecycle || !isAtOrBefore(lifecycle.deprecated, CURRENT_RELEASE)) return undefined;
  let warning = `${name} is deprecated in v${lifecycle.deprecated}+`;
  if (lifecycle.removed) warning += `, unavailable in v${lifecycle.removed}+`;
  if (lifecycle.replacement) warning += `; use ${lifecycle.replacement}`;
  return { warning, removedRelease: lifecycle.removed ?? "" };
}

/** The installer's deprecation wrapper: a warning, audit annotations and the gauge for every request to the version. */
export function noteDeprecatedRequest(
  type: ResourceType,
  info: RequestInfo,
  ctx: Pick<HandlerContext, "warnings" | "auditAnnotations">,
  metrics: ApiMetrics,
): void {
  const deprecation = deprecationOf(type.group, type.version, type.kind);
  if (!deprecation) return;
  ctx.warnings.push(deprecation.warning);
  ctx.auditAnnotations.set("k8s.io/deprecated", "true");
  if (deprecation.removedRelease) ctx.auditAnnotations.set("k8s.io/removed-release", deprecation.removedRelease);
  metrics.requestedDeprecatedApi(
    { group: info.apiGroup, version: info.apiVersion, resource: info.resource, subresource: info.subresource },
    deprecation.removedRelease,
  );
}
