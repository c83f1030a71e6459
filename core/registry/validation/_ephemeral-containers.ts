/**
 * Ephemeral containers as kube's validateEphemeralContainers checks them: container rules, names unique across
 * every container of the pod, a targetContainerName that names a regular or init container, and none of the
 * fields an ephemeral container may not have (the allow list's complement: ports, resources, lifecycle, probes).
 */
import type { FieldError } from "../../api/errors.ts";
import { forbidden, list, record, text } from "./_field.ts";
import { validateContainerList } from "./_container.ts";

const NOT_FOR_EPHEMERAL = ["ports", "resources", "lifecycle", "livenessProbe", "readinessProbe", "startupProbe"];

/** reflect's IsZero as validateFieldAllowList uses it: an empty struct or list is not set. */
function isZero(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && Object.values(value).every(isZero);
}

export function validateEphemeralContainers(specValue: unknown, path: string): FieldError[] {
  const spec = record(specValue);
  const others = new Set([...list(spec.containers), ...list(spec.initContainers)].map((c) => text(record(c).name)));
  const names = new Set(others);
  const errors = validateContainerList(spec.ephemeralContainers, path, names);
  list(spec.ephemeralContainers).forEach((raw, i) => {
    const container = record(raw);
    const at = `${path}[${i}]`;
    const target = text(container.targetContainerName);
    if (target && !others.has(target)) {
      errors.push({ type: "FieldValueNotFound", field: `${at}.targetContainerName`, value: target, detail: "" });
    }
    for (const field of NOT_FOR_EPHEMERAL) {
      if (!isZero(container[field])) errors.push(forbidden(`${at}.${field}`, "cannot be set for an Ephemeral Container"));
    }
  });
  return errors;
}
