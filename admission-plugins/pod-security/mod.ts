/**
 * PodSecurity (kube 1.26's pod-security-admission): pods are checked against the levels their namespace's
 * labels name (pod-security.kubernetes.io/enforce|audit|warn[-version], over the configured defaults).
 * enforce refuses with a 403, audit adds an audit annotation, warn a Warning. Workload resources' pod
 * templates get only audit annotations and warnings. Exempt namespaces, users and runtime classes pass.
 */
import { admissionForbidden } from "../../core/admission/errors.ts";
import type { BuiltInAdmissionFactory, ValidationAttributes } from "../../core/admission/types.ts";
import type { KubeObject } from "../../core/api/types.ts";
import { isWriteTo, podSpec } from "../_match.ts";
import { evaluate } from "./checks.ts";
import { type PodSecurityConfiguration, readPodSecurityConfiguration } from "./configuration.ts";
import { isWorkload, podFromWorkload } from "./pod-templates.ts";
import { describe, LABEL_PREFIX, type LevelVersion, policyFromLabels } from "./policy.ts";

const podSecurity: BuiltInAdmissionFactory = ({ client, pluginConfig }) => {
  const config = readPodSecurityConfiguration(pluginConfig);
  const namespaceLabels = async (namespace: string) =>
    (await client.get({ group: "", version: "v1", resource: "namespaces", name: namespace }))?.metadata.labels ?? {};
  return {
    name: "PodSecurity",
    handles: (attributes) =>
      isWriteTo(attributes, "", "pods", ["CREATE", "UPDATE"]) ||
      (attributes.resource.group === "" && attributes.resource.resource === "pods" && attributes.subresource === "ephemeralcontainers" &&
        attributes.operation === "UPDATE") ||
      (attributes.subresource === "" && isWorkload(attributes.resource) && ["CREATE", "UPDATE"].includes(attributes.operation)),
    async validate(attributes) {
      const isPod = attributes.resource.resource === "pods" && attributes.resource.group === "";
      const pod = isPod ? attributes.object! : podFromWorkload(attributes.resource, attributes.object!);
      if (!pod || unchanged(attributes, isPod)) return;
      const exemption = exemptionOf(config, attributes, pod);
      if (exemption) return attributes.addAuditAnnotation(`${LABEL_PREFIX}exempt`, exemption);
      const policy = policyFromLabels(await namespaceLabels(attributes.namespace), config.defaults);
      const violationText = (levelVersion: LevelVersion) => {
        const violations = evaluate(levelVersion.level, levelVersion.version, pod);
        return violations.length
          ? `"${describe(levelVersion)}": ${violations.map((v) => `${v.reason} (${v.detail})`).join(", ")}`
          : undefined;
      };
      const refused = isPod ? violationText(policy.enforce) : undefined;
      if (isPod) attributes.addAuditAnnotation(`${LABEL_PREFIX}enforce-policy`, describe(policy.enforce));
      const audited = violationText(policy.audit);
      if (audited) attributes.addAuditAnnotation(`${LABEL_PREFIX}audit-violations`, `would violate PodSecurity ${audited}`);
      if (refused) throw admissionForbidden(attributes, `violates PodSecurity ${refused}`);
      const warned = violationText(policy.warn);
      if (warned) attributes.addWarning(`would violate PodSecurity ${warned}`);
    },
  };
};

/** Updates that leave the pod (or pod template) alone, such as label or status changes, are not re-checked, as in kube. */
function unchanged(attributes: ValidationAttributes, isPod: boolean): boolean {
  if (attributes.operation !== "UPDATE" || !attributes.oldObject) return false;
  if (isPod) return JSON.stringify(attributes.object!.spec) === JSON.stringify(attributes.oldObject.spec);
  const template = (object: KubeObject) => JSON.stringify(podFromWorkload(attributes.resource, object) ?? null);
  return template(attributes.object!) === template(attributes.oldObject);
}

function exemptionOf({ exemptions }: PodSecurityConfiguration, attributes: ValidationAttributes, pod: KubeObject): string | undefined {
  if (exemptions.namespaces.has(attributes.namespace)) return "namespace";
  if (exemptions.usernames.has(attributes.user.username)) return "user";
  const runtimeClass = podSpec(pod).runtimeClassName;
  if (typeof runtimeClass === "string" && exemptions.runtimeClasses.has(runtimeClass)) return "runtimeClass";
  return undefined;
}

export default podSecurity;
