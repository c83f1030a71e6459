/** apiregistration.k8s.io/v1 APIService (spec 2.4; kube-aggregator's ValidateAPIService). */
import type { FieldError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { isDNS1035Label, isDNS1123Subdomain } from "../../api/names.ts";
import { invalid, invalidEach, isSet, record, required, text } from "./_field.ts";
import { isValidPortNum } from "./_ports.ts";

/** The name must be `<version>.<group>` (validate.ts already applied the path-segment rule). */
function validateName(obj: KubeObject, group: string, version: string): FieldError[] {
  const name = text(obj.metadata.name);
  const expected = `${version}.${group}`;
  return name && name !== expected ? [invalid("metadata.name", name, `must be \`spec.version+"."+spec.group\`: "${expected}"`)] : [];
}

function validateServiceRef(spec: Record<string, unknown>): FieldError[] {
  const service = record(spec.service);
  const errors: FieldError[] = [];
  if (!text(service.namespace)) errors.push(required("spec.service.namespace"));
  if (!text(service.name)) errors.push(required("spec.service.name"));
  const port = typeof service.port === "number" ? service.port : 443;
  const portErrors = isValidPortNum(port);
  if (portErrors.length > 0) errors.push(invalid("spec.service.port", port, `port is not valid: ${portErrors.join(", ")}`));
  if (spec.insecureSkipTLSVerify === true && text(spec.caBundle)) {
    errors.push(invalid("spec.insecureSkipTLSVerify", true, "may not be true if caBundle is present"));
  }
  return errors;
}

export function validateAPIService(obj: KubeObject): FieldError[] {
  const spec = record(obj.spec);
  const group = text(spec.group);
  const version = text(spec.version);
  const errors = validateName(obj, group, version);
  if (!group && version !== "v1") errors.push(required("spec.group", "only v1 may have an empty group and it better be legacy kube"));
  if (group) errors.push(...invalidEach("spec.group", group, isDNS1123Subdomain(group)));
  errors.push(...invalidEach("spec.version", version, isDNS1035Label(version)));
  const groupPriority = Number(spec.groupPriorityMinimum ?? 0);
  if (groupPriority <= 0 || groupPriority > 20000) {
    errors.push(invalid("spec.groupPriorityMinimum", groupPriority, "must be positive and less than 20000"));
  }
  const versionPriority = Number(spec.versionPriority ?? 0);
  if (versionPriority <= 0 || versionPriority > 1000) {
    errors.push(invalid("spec.versionPriority", versionPriority, "must be positive and less than 1000"));
  }
  if (isSet(spec.service)) return [...errors, ...validateServiceRef(spec)];
  const caBundle = text(spec.caBundle);
  if (caBundle) {
    errors.push(invalid("spec.caBundle", `${Math.floor((caBundle.length * 3) / 4)} bytes`, "local APIServices may not have a caBundle"));
  }
  if (spec.insecureSkipTLSVerify === true) {
    errors.push(invalid("spec.insecureSkipTLSVerify", true, "local APIServices may not have insecureSkipTLSVerify"));
  }
  return errors;
}
