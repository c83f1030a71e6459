/** Smaller kinds: Namespace finalizers, PriorityClass, StorageClass, Lease, PersistentVolumeClaim. */
import type { FieldError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { isDNS1123Subdomain, isQualifiedName, STANDARD_FINALIZERS, UNQUALIFIED_FINALIZER } from "../../api/names.ts";
import {
  deepEqual,
  forbidden,
  immutable,
  invalid,
  invalidEach,
  isSet,
  list,
  nonNegative,
  notSupported,
  record,
  required,
  text,
} from "./_field.ts";
import { compareQuantities, parseQuantity, ZERO_QUANTITY } from "../../api/quantity.ts";
import { validateLabelSelector } from "./_selector.ts";

export function validateNamespace(obj: KubeObject): FieldError[] {
  return list(record(obj.spec).finalizers).flatMap((raw) => {
    const name = String(raw);
    const errors = invalidEach("spec.finalizers", name, isQualifiedName(name));
    if (errors.length > 0 || name.includes("/") || STANDARD_FINALIZERS.has(name)) return errors;
    return [invalid("spec.finalizers", name, UNQUALIFIED_FINALIZER)];
  });
}

const HIGHEST_USER_PRIORITY = 1000000000;
const SYSTEM_PRIORITY_CLASSES: Record<string, number> = { "system-node-critical": 2000001000, "system-cluster-critical": 2000000000 };

function systemClassProblem(name: string, value: unknown, globalDefault: unknown): string | undefined {
  const expected = SYSTEM_PRIORITY_CLASSES[name];
  if (expected === undefined) return `${name} is not a known system priority class`;
  if (value !== expected) return `value of ${name} PriorityClass must be ${expected}`;
  return globalDefault === true ? `globalDefault of ${name} PriorityClass must be false` : undefined;
}

export function validatePriorityClass(obj: KubeObject): FieldError[] {
  const name = text(obj.metadata.name);
  const errors: FieldError[] = [];
  if (name.startsWith("system-")) {
    const problem = systemClassProblem(name, obj.value, obj.globalDefault);
    if (problem) {
      errors.push(
        forbidden("metadata.name", `priority class names with 'system-' prefix are reserved for system use only. error: ${problem}`),
      );
    }
  } else if (typeof obj.value === "number" && obj.value > HIGHEST_USER_PRIORITY) {
    errors.push(forbidden("value", `maximum allowed value of a user defined priority is ${HIGHEST_USER_PRIORITY}`));
  }
  const preemption = obj.preemptionPolicy;
  if (isSet(preemption) && preemption !== "Never" && preemption !== "PreemptLowerPriority") {
    errors.push(notSupported("preemptionPolicy", preemption, ["Never", "PreemptLowerPriority"]));
  }
  return errors;
}

export function validatePriorityClassUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errors = validatePriorityClass(obj);
  if (obj.value !== old.value) errors.push(forbidden("value", "may not be changed in an update."));
  return [...errors, ...immutable(obj.preemptionPolicy, old.preemptionPolicy, "preemptionPolicy")];
}

export function validateStorageClass(obj: KubeObject): FieldError[] {
  const provisioner = text(obj.provisioner);
  const errors = provisioner
    ? invalidEach("provisioner", provisioner.toLowerCase(), isQualifiedName(provisioner.toLowerCase()))
    : [required("provisioner")];
  if (isSet(obj.reclaimPolicy) && !["Delete", "Retain"].includes(text(obj.reclaimPolicy))) {
    errors.push(notSupported("reclaimPolicy", obj.reclaimPolicy, ["Delete", "Retain"]));
  }
  const binding = obj.volumeBindingMode;
  if (isSet(binding) && !["Immediate", "WaitForFirstConsumer"].includes(text(binding))) {
    errors.push(notSupported("volumeBindingMode", binding, ["Immediate", "WaitForFirstConsumer"]));
  }
  return errors;
}

export function validateStorageClassUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errors = validateStorageClass(obj);
  if (!deepEqual(obj.parameters ?? {}, old.parameters ?? {})) errors.push(forbidden("parameters", "updates to parameters are forbidden."));
  if (obj.provisioner !== old.provisioner) errors.push(forbidden("provisioner", "updates to provisioner are forbidden."));
  if ((obj.reclaimPolicy ?? "Delete") !== (old.reclaimPolicy ?? "Delete")) {
    errors.push(forbidden("reclaimPolicy", "updates to reclaimPolicy are forbidden."));
  }
  return [...errors, ...immutable(obj.volumeBindingMode, old.volumeBindingMode, "volumeBindingMode")];
}

export function validateLease(obj: KubeObject): FieldError[] {
  const spec = record(obj.spec);
  const duration = spec.leaseDurationSeconds;
  const errors = typeof duration === "number" && duration <= 0
    ? [invalid("spec.leaseDurationSeconds", duration, "must be greater than 0")]
    : [];
  return [...errors, ...nonNegative(spec.leaseTransitions, "spec.leaseTransitions")];
}

const ACCESS_MODES = ["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"];

export function validatePersistentVolumeClaim(obj: KubeObject): FieldError[] {
  const spec = record(obj.spec);
  const modes = list(spec.accessModes);
  const errors = modes.length === 0 ? [required("spec.accessModes", "at least 1 access mode is required")] : [];
  errors.push(...validateLabelSelector(spec.selector, "spec.selector"));
  for (const mode of modes) if (!ACCESS_MODES.includes(String(mode))) errors.push(notSupported("spec.accessModes", mode, ACCESS_MODES));
  const requests = record(record(spec.resources).requests);
  if (!isSet(requests.storage)) errors.push(required("spec.resources[storage]"));
  else if (isNotPositive(requests.storage)) errors.push(invalid("spec.resources[storage]", requests.storage, "must be greater than zero"));
  const storageClass = text(spec.storageClassName);
  if (storageClass) errors.push(...invalidEach("spec.storageClassName", storageClass, isDNS1123Subdomain(storageClass)));
  if (isSet(spec.volumeMode) && !["Block", "Filesystem"].includes(text(spec.volumeMode))) {
    errors.push(notSupported("spec.volumeMode", spec.volumeMode, ["Block", "Filesystem"]));
  }
  return errors;
}

/** A storage request that parses and is zero or less (text that does not parse is the schema check's to report). */
function isNotPositive(value: unknown): boolean {
  const quantity = parseQuantity(value);
  return quantity !== undefined && compareQuantities(quantity, ZERO_QUANTITY) <= 0;
}
