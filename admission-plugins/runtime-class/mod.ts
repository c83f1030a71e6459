/**
 * RuntimeClass: a pod's overhead and scheduling constraints come from its RuntimeClass; a pod that sets an
 * overhead of its own (or names a missing class) is refused.
 */
import { admissionForbidden } from "../../core/admission/errors.ts";
import type { KubeObject } from "../../core/api/types.ts";
import type { AdmissionAttributes, BuiltInAdmissionFactory, ValidationAttributes } from "../../core/admission/types.ts";
import type { ReadOnlyClient } from "../../core/api/client.ts";
import { isWriteTo, podSpec } from "../_match.ts";

interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

interface RuntimeSpec {
  runtimeClassName?: string;
  overhead?: Record<string, string>;
  nodeSelector?: Record<string, string>;
  tolerations?: Toleration[];
}

const runtimeClass: BuiltInAdmissionFactory = ({ client }) => ({
  name: "RuntimeClass",
  handles: (attributes) => isWriteTo(attributes, "", "pods", ["CREATE"]),
  async admit(attributes) {
    const spec = podSpec(attributes.object!) as RuntimeSpec;
    const runtime = await runtimeClassOf(client, spec, attributes);
    const overhead = runtime?.overhead as { podFixed?: Record<string, string> } | undefined;
    if (overhead?.podFixed) {
      if (spec.overhead && !sameMap(spec.overhead, overhead.podFixed)) {
        throw admissionForbidden(attributes, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
      }
      spec.overhead = { ...overhead.podFixed };
    }
    const scheduling = runtime?.scheduling as { nodeSelector?: Record<string, string>; tolerations?: Toleration[] } | undefined;
    if (scheduling) applyScheduling(spec, scheduling, attributes);
  },
  async validate(attributes) {
    const spec = podSpec(attributes.object!) as RuntimeSpec;
    const runtime = await runtimeClassOf(client, spec, attributes);
    const podFixed = (runtime?.overhead as { podFixed?: Record<string, string> } | undefined)?.podFixed;
    if (podFixed && !sameMap(spec.overhead ?? {}, podFixed)) {
      throw admissionForbidden(attributes, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
    }
    if (!podFixed && spec.overhead) {
      throw admissionForbidden(attributes, "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead");
    }
  },
});

async function runtimeClassOf(client: ReadOnlyClient, spec: RuntimeSpec, attributes: ValidationAttributes): Promise<KubeObject | null> {
  if (!spec.runtimeClassName) return null;
  const found = await client.get({ group: "node.k8s.io", version: "v1", resource: "runtimeclasses", name: spec.runtimeClassName });
  if (!found) throw admissionForbidden(attributes, `pod rejected: RuntimeClass "${spec.runtimeClassName}" not found`);
  return found;
}

function applyScheduling(
  spec: RuntimeSpec,
  scheduling: { nodeSelector?: Record<string, string>; tolerations?: Toleration[] },
  attributes: AdmissionAttributes,
): void {
  const selector = { ...(spec.nodeSelector ?? {}) };
  for (const [key, value] of Object.entries(scheduling.nodeSelector ?? {})) {
    if (selector[key] !== undefined && selector[key] !== value) {
      throw admissionForbidden(
        attributes,
        `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${value}; pod.spec.nodeSelector[${key}] = ${selector[key]}`,
      );
    }
    selector[key] = value;
  }
  if (Object.keys(selector).length > 0) spec.nodeSelector = selector;
  const tolerations = [...(spec.tolerations ?? [])];
  for (const toleration of scheduling.tolerations ?? []) {
    if (!tolerations.some((t) => sameMap(t as Record<string, unknown>, toleration as Record<string, unknown>))) {
      tolerations.push(toleration);
    }
  }
  if (tolerations.length > 0) spec.tolerations = tolerations;
}

function sameMap(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => String(a[key]) === String(b[key]));
}

export default runtimeClass;
