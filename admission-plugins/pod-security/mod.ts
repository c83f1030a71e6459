/**
 * PodSecurity: pods are checked against the level their namespace's labels name
 * (pod-security.kubernetes.io/enforce|warn|audit, with -version): enforce refuses with a 403, warn adds a
 * Warning, audit an audit annotation.
 */
import { admissionForbidden } from "../../core/admission/errors.ts";
import type { BuiltInAdmissionFactory } from "../../core/admission/types.ts";
import { isWriteTo } from "../_match.ts";
import { evaluate, type Level } from "./checks.ts";

const LABEL_PREFIX = "pod-security.kubernetes.io/";
const LEVELS = new Set<Level>(["privileged", "baseline", "restricted"]);

const podSecurity: BuiltInAdmissionFactory = ({ client }) => ({
  name: "PodSecurity",
  handles: (attributes) => isWriteTo(attributes, "", "pods", ["CREATE", "UPDATE"]),
  async validate(attributes) {
    // Updates that leave the spec alone (labels, annotations) are not re-checked, as in kube.
    if (attributes.operation === "UPDATE" && JSON.stringify(attributes.object!.spec) === JSON.stringify(attributes.oldObject!.spec)) return;
    const namespace = await client.get({ group: "", version: "v1", resource: "namespaces", name: attributes.namespace });
    const labels = namespace?.metadata.labels ?? {};
    const enforce = policy(labels, "enforce");
    const message = (p: { level: Level; version: string }) => describe(p, evaluate(p.level, attributes.object!));
    const refused = enforce && message(enforce);
    if (refused) throw admissionForbidden(attributes, `violates PodSecurity ${refused}`);
    const audit = policy(labels, "audit");
    const audited = audit && message(audit);
    if (audited) attributes.addAuditAnnotation("pod-security.kubernetes.io/audit-violations", `would violate PodSecurity ${audited}`);
    const warn = policy(labels, "warn");
    const warned = warn && message(warn);
    if (warned) attributes.addWarning(`would violate PodSecurity ${warned}`);
  },
});

function policy(labels: Record<string, string>, mode: string): { level: Level; version: string } | undefined {
  const level = labels[`${LABEL_PREFIX}${mode}`] as Level | undefined;
  if (!level || !LEVELS.has(level)) return undefined;
  return { level, version: labels[`${LABEL_PREFIX}${mode}-version`] || "latest" };
}

function describe(p: { level: Level; version: string }, violations: ReturnType<typeof evaluate>): string | undefined {
  if (violations.length === 0) return undefined;
  return `"${p.level}:${p.version}": ${violations.map((v) => `${v.reason} (${v.detail})`).join(", ")}`;
}

export default podSecurity;
