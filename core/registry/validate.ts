/** The checks every object gets before it is stored: metadata rules and the kind's name rule. */
import { type FieldError, newInvalid } from "../api/errors.ts";
import {
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  nameIsPathSegment,
  type NameValidator,
  validateObjectMeta,
} from "../api/names.ts";
import type { KubeObject } from "../api/types.ts";
import type { ResourceType } from "./resource-type.ts";
import { validateKind } from "./validation/mod.ts";

/** kube's per-kind name validators (ValidateXName in pkg/apis/<group>/validation); the rest use DNS-1123 subdomains. */
const NAME_RULES: Record<string, NameValidator> = {
  "/namespaces": nameIsDNSLabel,
  "/services": nameIsDNS1035Label,
  "rbac.authorization.k8s.io/roles": nameIsPathSegment,
  "rbac.authorization.k8s.io/clusterroles": nameIsPathSegment,
  "rbac.authorization.k8s.io/rolebindings": nameIsPathSegment,
  "rbac.authorization.k8s.io/clusterrolebindings": nameIsPathSegment,
  // kube's ValidateCertificateRequestName accepts any name a path can carry (kubelets use base64url hashes).
  "certificates.k8s.io/certificatesigningrequests": nameIsPathSegment,
  // "<version>.<group>", e.g. "v1." for the core group; validation/apiservice.ts checks the exact form.
  "apiregistration.k8s.io/apiservices": nameIsPathSegment,
};

export function nameValidatorFor(type: ResourceType): NameValidator {
  return NAME_RULES[`${type.group}/${type.resource}`] ?? nameIsDNSSubdomain;
}

export interface ValidationContext {
  /** The stored object, on update. */
  old?: KubeObject;
  /** Rules of a type defined at run time (a custom resource's schema). */
  extraRules?: (obj: KubeObject, old?: KubeObject) => FieldError[];
  /** The subresource an update writes through ("" for the main resource). */
  subresource?: string;
}

/** Metadata rules plus the kind's own rules (with `old` on update) and any `extraRules`; any error makes one 422 Invalid. */
export function validateNewObject(type: ResourceType, obj: KubeObject, context: ValidationContext = {}): void {
  const { old, extraRules, subresource = "" } = context;
  const errors = [
    ...validateObjectMeta(obj.metadata, { namespaced: type.namespaced, nameValidator: nameValidatorFor(type) }),
    ...validateKind(type, obj, old, subresource),
    ...(extraRules?.(obj, old) ?? []),
  ];
  if (errors.length > 0) {
    throw newInvalid({ group: type.group, kind: type.kind }, String(obj.metadata.name ?? obj.metadata.generateName ?? ""), errors);
  }
}
