/** LimitRanger's defaulting of a container from a Container-type LimitRange item (kube's defaultContainerResourceRequirements). */
import type { Container } from "../_match.ts";
import type { Resources } from "./constraints.ts";

export interface LimitItem {
  type?: string;
  default?: Resources;
  defaultRequest?: Resources;
  min?: Resources;
  max?: Resources;
  maxLimitRequestRatio?: Resources;
}

/** Fills missing requests and limits (defaultRequest falls back to default, default to max); returns kube's notes. */
export function applyDefaults(container: Container, item: LimitItem): string[] {
  const limitDefaults = { ...item.max, ...item.default };
  const requestDefaults = { ...limitDefaults, ...item.defaultRequest };
  const resources = (container.resources ??= {});
  const setRequests = Object.keys(requestDefaults).filter((name) =>
    resources.requests?.[name] === undefined && resources.limits?.[name] === undefined
  );
  const setLimits = Object.keys(limitDefaults).filter((name) => resources.limits?.[name] === undefined);
  for (const name of setRequests) resources.requests = { ...resources.requests, [name]: requestDefaults[name]! };
  for (const name of setLimits) resources.limits = { ...resources.limits, [name]: limitDefaults[name]! };
  const notes = [];
  if (setRequests.length > 0) notes.push(`${setRequests.join(", ")} request for container ${container.name}`);
  if (setLimits.length > 0) notes.push(`${setLimits.join(", ")} limit for container ${container.name}`);
  return notes;
}
