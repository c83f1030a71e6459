/**
 * PodSpec and PodTemplateSpec essentials (kube's ValidatePodSpec / ValidatePodTemplateSpec). Fields kube defaults
 * (restartPolicy, dnsPolicy, imagePullPolicy...) are checked only when present: defaulting runs first.
 */
import type { FieldError } from "../../api/errors.ts";
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, validateAnnotations, validateLabels } from "../../api/names.ts";
import { duplicate, invalid, invalidEach, list, notSupported, record, required, stringMap, text } from "./_field.ts";
import { validateContainerList } from "./_container.ts";

export const RESTART_POLICIES = ["Always", "OnFailure", "Never"];
const DNS_POLICIES = ["ClusterFirst", "ClusterFirstWithHostNet", "Default", "None"];
const TOLERATION_OPERATORS = ["Equal", "Exists"];
const TAINT_EFFECTS = ["NoSchedule", "PreferNoSchedule", "NoExecute"];
const MAX_UINT32 = 4294967295;

function validateVolumeNames(volumes: unknown, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  list(volumes).forEach((raw, i) => {
    const name = text(record(raw).name);
    const at = `${path}[${i}].name`;
    if (!name) errors.push(required(at));
    else errors.push(...invalidEach(at, name, isDNS1123Label(name)));
    if (name && seen.has(name)) errors.push(duplicate(at, name));
    seen.add(name);
  });
  return errors;
}

function validateTolerations(tolerations: unknown, path: string): FieldError[] {
  const errors: FieldError[] = [];
  list(tolerations).forEach((raw, i) => {
    const t = record(raw);
    const at = `${path}[${i}]`;
    const key = text(t.key);
    if (key) errors.push(...invalidEach(`${at}.key`, key, isQualifiedName(key)));
    if (!key && t.operator !== "Exists") {
      errors.push(
        invalid(
          `${at}.operator`,
          t.operator ?? "",
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    }
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && t.effect !== "NoExecute") {
      errors.push(invalid(`${at}.effect`, t.effect ?? "", "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (t.operator === "Exists" && text(t.value) !== "") {
      errors.push(invalid(`${at}.operator`, t.value, "value must be empty when `operator` is 'Exists'"));
    } else if (t.operator && !TOLERATION_OPERATORS.includes(text(t.operator))) {
      errors.push(notSupported(`${at}.operator`, t.operator, TOLERATION_OPERATORS));
    }
    if (t.effect && !TAINT_EFFECTS.includes(text(t.effect))) errors.push(notSupported(`${at}.effect`, t.effect, TAINT_EFFECTS));
  });
  return errors;
}

function subdomainIfSet(value: unknown, path: string): FieldError[] {
  return value ? invalidEach(path, value, isDNS1123Subdomain(text(value))) : [];
}

function labelIfSet(value: unknown, path: string): FieldError[] {
  return value ? invalidEach(path, value, isDNS1123Label(text(value))) : [];
}

export function validatePodSpec(specValue: unknown, path: string): FieldError[] {
  const spec = record(specValue);
  const errors = validateVolumeNames(spec.volumes, `${path}.volumes`);
  const names = new Set<string>();
  if (list(spec.containers).length === 0) errors.push(required(`${path}.containers`));
  errors.push(...validateContainerList(spec.containers, `${path}.containers`, names));
  errors.push(...validateContainerList(spec.initContainers, `${path}.initContainers`, names));
  if (spec.restartPolicy && !RESTART_POLICIES.includes(text(spec.restartPolicy))) {
    errors.push(notSupported(`${path}.restartPolicy`, spec.restartPolicy, RESTART_POLICIES));
  }
  if (spec.dnsPolicy && !DNS_POLICIES.includes(text(spec.dnsPolicy))) {
    errors.push(notSupported(`${path}.dnsPolicy`, spec.dnsPolicy, DNS_POLICIES));
  }
  errors.push(...validateLabels(stringMap(spec.nodeSelector), `${path}.nodeSelector`));
  errors.push(...subdomainIfSet(spec.serviceAccountName, `${path}.serviceAccountName`));
  errors.push(...subdomainIfSet(spec.nodeName, `${path}.nodeName`));
  errors.push(...labelIfSet(spec.hostname, `${path}.hostname`));
  errors.push(...labelIfSet(spec.subdomain, `${path}.subdomain`));
  const deadline = spec.activeDeadlineSeconds;
  if ((typeof deadline === "number" || typeof deadline === "bigint") && (deadline < 1 || deadline > MAX_UINT32)) {
    errors.push(invalid(`${path}.activeDeadlineSeconds`, deadline, `must be between 1 and ${MAX_UINT32}, inclusive`));
  }
  errors.push(...validateTolerations(spec.tolerations, `${path}.tolerations`));
  return errors;
}

/** A pod template: its metadata's labels and annotations, then its spec. */
export function validatePodTemplateSpec(templateValue: unknown, path: string): FieldError[] {
  const template = record(templateValue);
  const meta = record(template.metadata);
  return [
    ...validateLabels(stringMap(meta.labels), `${path}.metadata.labels`),
    ...validateAnnotations(stringMap(meta.annotations), `${path}.metadata.annotations`),
    ...validatePodSpec(template.spec, `${path}.spec`),
  ];
}
