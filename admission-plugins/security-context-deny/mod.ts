/** SecurityContextDeny: pods may not set the security-context fields that pick users, groups or SELinux labels. */
import { admissionForbidden } from "../../core/admission/errors.ts";
import type { BuiltInAdmissionFactory } from "../../core/admission/types.ts";
import { isWriteTo, podSpec } from "../_match.ts";

const POD_FIELDS = ["supplementalGroups", "seLinuxOptions", "runAsUser", "fsGroup"];
const CONTAINER_FIELDS = ["seLinuxOptions", "runAsUser"];

const securityContextDeny: BuiltInAdmissionFactory = () => ({
  name: "SecurityContextDeny",
  handles: (attributes) => isWriteTo(attributes, "", "pods", ["CREATE", "UPDATE"]),
  validate(attributes) {
    const spec = podSpec(attributes.object!);
    const podContext = (spec.securityContext ?? {}) as Record<string, unknown>;
    for (const field of POD_FIELDS) {
      if (podContext[field] !== undefined) throw admissionForbidden(attributes, `pod.Spec.SecurityContext.${goName(field)} is forbidden`);
    }
    for (const container of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
      for (const field of CONTAINER_FIELDS) {
        if (container.securityContext?.[field] !== undefined) {
          throw admissionForbidden(attributes, `SecurityContext.${goName(field)} is forbidden`);
        }
      }
    }
  },
});

/** kube names the Go fields: runAsUser → RunAsUser, seLinuxOptions → SELinuxOptions. */
function goName(field: string): string {
  return field === "seLinuxOptions" ? "SELinuxOptions" : field === "fsGroup" ? "FSGroup" : field[0]!.toUpperCase() + field.slice(1);
}

export default securityContextDeny;
