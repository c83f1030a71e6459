/** Pods: the spec rules on create, and kube's narrow list of fields an update may change (ValidatePodUpdate). */
import type { FieldError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { deepEqual, forbidden, invalid, list, type Obj, record } from "./_field.ts";
import { validateEphemeralContainers } from "./_ephemeral-containers.ts";
import { validatePodSpec } from "./_pod-spec.ts";

const MAX_INT32 = 2147483647;
export const POD_UPDATE_FORBIDDEN =
  "pod updates may not change fields other than `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds`, `spec.tolerations` (only additions to existing tolerations) or `spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

/** ValidatePodCreate: ephemeral containers come only through the ephemeralcontainers subresource. */
export function validatePod(obj: KubeObject): FieldError[] {
  const errors = validatePodSpec(obj.spec, "spec");
  if (list(record(obj.spec).ephemeralContainers).length > 0) errors.push(forbidden("spec.ephemeralContainers", "cannot be set on create"));
  return errors;
}

/** activeDeadlineSeconds may be set or shortened, never raised or removed. */
function validateDeadlineUpdate(next: unknown, old: unknown): FieldError[] {
  const path = "spec.activeDeadlineSeconds";
  if (typeof next === "number") {
    if (next < 0 || next > MAX_INT32) return [invalid(path, next, `must be between 0 and ${MAX_INT32}, inclusive`)];
    if (typeof old === "number" && old < next) return [invalid(path, next, "must be less than or equal to previous value")];
    return [];
  }
  return typeof old === "number" ? [invalid(path, null, "must not update from a positive integer to nil value")] : [];
}

/** Puts the old images back into the new containers, as kube's munging does before comparing. */
function withOldImages(next: unknown, old: unknown): unknown {
  const oldList = list(old);
  return list(next).map((c, i) => (i < oldList.length ? { ...record(c), image: record(oldList[i]).image } : c));
}

/** A cmp.Diff-like listing of the changed top-level spec fields, appended to the message as kube appends its diff. */
function specDiff(old: Obj, next: Obj, typeName = "core.PodSpec"): string {
  const keys = [...new Set([...Object.keys(old), ...Object.keys(next)])].sort();
  const lines = keys.filter((k) => !deepEqual(old[k], next[k])).flatMap((k) => {
    const name = k.charAt(0).toUpperCase() + k.slice(1);
    return [`- \t${name}: ${JSON.stringify(old[k] ?? null)},`, `+ \t${name}: ${JSON.stringify(next[k] ?? null)},`];
  });
  return [`  ${typeName}{`, ...lines, "  }", ""].join("\n");
}

export function validatePodUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const spec = record(obj.spec);
  const oldSpec = record(old.spec);
  const errors = [...validatePodSpec(spec, "spec"), ...validateDeadlineUpdate(spec.activeDeadlineSeconds, oldSpec.activeDeadlineSeconds)];
  if (errors.length > 0) return errors;
  const oldTolerations = list(oldSpec.tolerations);
  const keepsTolerations = oldTolerations.every((t) => list(spec.tolerations).some((n) => deepEqual(n, t)));
  const negativeGrace = typeof oldSpec.terminationGracePeriodSeconds === "number" && oldSpec.terminationGracePeriodSeconds < 0;
  const munged: Obj = {
    ...spec,
    containers: withOldImages(spec.containers, oldSpec.containers),
    initContainers: spec.initContainers === undefined ? undefined : withOldImages(spec.initContainers, oldSpec.initContainers),
    activeDeadlineSeconds: oldSpec.activeDeadlineSeconds,
    tolerations: keepsTolerations ? oldSpec.tolerations : spec.tolerations,
    terminationGracePeriodSeconds: negativeGrace && spec.terminationGracePeriodSeconds === 1
      ? oldSpec.terminationGracePeriodSeconds
      : spec.terminationGracePeriodSeconds,
  };
  if (deepEqual(munged, oldSpec)) return [];
  return [forbidden("spec", `${POD_UPDATE_FORBIDDEN}\n${specDiff(oldSpec, munged)}`)];
}

/**
 * ValidatePodEphemeralContainersUpdate: the pod's spec rules with its ephemeral containers, and existing ephemeral
 * containers may be neither removed nor changed (only additions).
 */
export function validatePodEphemeralContainersUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const path = "spec.ephemeralContainers";
  const errors = [...validatePodSpec(obj.spec, "spec"), ...validateEphemeralContainers(obj.spec, path)];
  const next = new Map(list(record(obj.spec).ephemeralContainers).map((c) => [record(c).name, record(c)]));
  for (const raw of list(record(old.spec).ephemeralContainers)) {
    const previous = record(raw);
    const name = String(previous.name);
    const now = next.get(name);
    if (!now) errors.push(forbidden(path, `existing ephemeral containers "${name}" may not be removed\n`));
    else if (!deepEqual(previous, now)) {
      errors.push(
        forbidden(
          path,
          `existing ephemeral containers "${name}" may not be changed\n${specDiff(previous, now, "core.EphemeralContainer")}`,
        ),
      );
    }
  }
  return errors;
}
