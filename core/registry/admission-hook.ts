/**
 * Where the generic store hands a user's write to admission (spec 4.13): `admit` (mutating) right after
 * defaulting, `validate` after validation and write guards, just before the write; deletes get both with the
 * stored object as oldObject. core/admission implements it; the store knows nothing of plugins.
 */
import type { KubeObject } from "../api/types.ts";
import type { UserInfo } from "../auth/user.ts";
import type { ResourceType } from "../api/resource-type.ts";
import type { DeleteOptions } from "./store-options.ts";

/** CreateOptions, UpdateOptions or DeleteOptions as kube hands them to admission (kind and apiVersion set). */
export interface OptionsObject {
  kind: string;
  apiVersion: string;
  [field: string]: unknown;
}

export interface AdmittedWrite {
  operation: "CREATE" | "UPDATE" | "DELETE";
  type: ResourceType;
  subresource: string;
  namespace: string;
  name: string;
  /** The object to write, changed in place by mutating plugins; null on DELETE. */
  object: KubeObject | null;
  oldObject: KubeObject | null;
  user: UserInfo;
  dryRun: boolean;
  /** The request's CreateOptions, UpdateOptions or DeleteOptions. */
  options: OptionsObject;
  /** Receives Warning texts for the response. */
  warnings?: string[];
  /** Receives the request's audit annotations (kube's AddAnnotation; the first value of a key stays). */
  auditAnnotations?: Map<string, string>;
}

/** Each phase answers at once when no plugin waited for anything; a refusal is always a rejected promise. */
export interface AdmissionHook {
  /** Mutating phase; true when some plugin may have changed the object. */
  admit(write: AdmittedWrite): boolean | Promise<boolean>;
  /** Validating phase; rejects to refuse. */
  validate(write: AdmittedWrite): void | Promise<void>;
}

/** The CreateOptions or UpdateOptions object kube hands admission for a write. */
export function writeOptionsObject(
  operation: "CREATE" | "UPDATE",
  options: { dryRun?: boolean; fieldManager?: string; fieldValidation?: string },
): OptionsObject {
  return withoutUndefined({
    kind: operation === "CREATE" ? "CreateOptions" : "UpdateOptions",
    apiVersion: "meta.k8s.io/v1",
    dryRun: options.dryRun ? ["All"] : undefined,
    fieldManager: options.fieldManager,
    fieldValidation: options.fieldValidation,
  });
}

/** The DeleteOptions object kube hands admission for a delete. */
export function deleteOptionsObject(options: DeleteOptions): OptionsObject {
  // metav1.DeleteOptions' field order.
  return withoutUndefined({
    kind: "DeleteOptions",
    apiVersion: "meta.k8s.io/v1",
    gracePeriodSeconds: options.gracePeriodSeconds,
    preconditions: options.preconditions,
    orphanDependents: options.orphanDependents,
    propagationPolicy: options.propagationPolicy,
    dryRun: options.dryRun ? ["All"] : undefined,
  });
}

/** The fields that are set, in their order (kube's options omit empty ones); `for in` costs a fifth of entries and back. */
function withoutUndefined(fields: OptionsObject): OptionsObject {
  const given = fields as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const key in given) if (given[key] !== undefined) kept[key] = given[key];
  return kept as OptionsObject;
}
