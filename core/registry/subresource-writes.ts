/** How updates and subresource writes merge into the stored object, and the name check every write makes. */
import { newBadRequest } from "../api/errors.ts";
import { isPlainObject, type KubeObject } from "../api/types.ts";
import type { StatusKeptMetadata, Strategy } from "./strategy.ts";

/**
 * A body naming another object than the URL is a 400, before anything is read (kube's checkName); so is one naming
 * another namespace than a namespaced URL's, for the writers that pass it (UpdateResource, the patcher's applyPatch).
 * A body without a name passes here: the store names it after the URL.
 */
export function checkBodyName(obj: KubeObject, urlName: string, urlNamespace = ""): void {
  const meta = isPlainObject(obj.metadata) ? obj.metadata : undefined;
  const bodyName = meta?.name;
  if (bodyName !== undefined && bodyName !== urlName) {
    throw newBadRequest(`the name of the object (${bodyName}) does not match the name on the URL (${urlName})`);
  }
  const bodyNamespace = meta?.namespace;
  if (urlNamespace !== "" && typeof bodyNamespace === "string" && bodyNamespace !== "" && bodyNamespace !== urlNamespace) {
    throw newBadRequest(`the namespace of the object (${bodyNamespace}) does not match the namespace on the request (${urlNamespace})`);
  }
}

/**
 * kube's checkName on what an update or a patch writes: besides checkBodyName's rules the object must have a name
 * (ContextBasedNaming.ObjectName's errEmptyName), so a body without one changes nothing.
 */
export function checkName(obj: KubeObject, urlName: string, urlNamespace = ""): void {
  const name = isPlainObject(obj.metadata) ? obj.metadata.name : undefined;
  if (name === undefined || name === null || name === "") {
    throw newBadRequest(`the name of the object (${urlName} based on URL) was undeterminable: name must be provided`);
  }
  checkBodyName(obj, urlName, urlNamespace);
}

export function setStatus(obj: KubeObject, status: unknown): void {
  if (status === undefined) delete obj.status;
  else obj.status = status;
}

/**
 * What an update writes: the kind's own merge when its strategy has one, else the subresource's; a write of the main
 * resource keeps the stored status where the kind has a status subresource (kube's PrepareForUpdate).
 */
export function mergedForUpdate(
  strategy: Pick<Strategy, "prepareForUpdate" | "hasStatus" | "statusKeepsMetadata">,
  next: KubeObject,
  current: KubeObject,
  subresource: string,
): KubeObject {
  if (strategy.prepareForUpdate) return strategy.prepareForUpdate(next, current, subresource);
  if (subresource === "status") return withStatusFrom(current, next, strategy.statusKeepsMetadata ?? []);
  // namespaceFinalizeStrategy.PrepareForUpdate: the client's spec and metadata, the stored status.
  if (subresource === "finalize") return withStoredStatus(next, current);
  if (subresource === "ephemeralcontainers") return withEphemeralContainersFrom(current, next);
  return strategy.hasStatus ? withStoredStatus(next, current) : next;
}

function withStoredStatus(next: KubeObject, current: KubeObject): KubeObject {
  setStatus(next, current.status);
  return next;
}

/** What metav1.ResetObjectMetaForStatus keeps besides what every update keeps (generation, deletionTimestamp). */
export const RESET_OBJECT_META_FOR_STATUS: StatusKeptMetadata = ["labels", "annotations", "finalizers", "ownerReferences"];

/**
 * A status write keeps everything but metadata and status as stored (kube's status strategies set
 * `newObj.Spec = oldObj.Spec`); the client's metadata is written except the fields `kept` names.
 */
export function withStatusFrom(current: KubeObject, next: KubeObject, kept: StatusKeptMetadata): KubeObject {
  const merged = structuredClone(current);
  setStatus(merged, next.status);
  if (kept === "all") {
    keepClientVersion(merged, next);
    return merged;
  }
  merged.metadata = next.metadata;
  for (const field of kept) {
    if (current.metadata[field] === undefined) delete merged.metadata[field];
    else Object.assign(merged.metadata, { [field]: structuredClone(current.metadata[field]) });
  }
  return merged;
}

/** A resourceVersion the client sent stays a precondition on the merged object; none means an unconditional write. */
function keepClientVersion(merged: KubeObject, next: KubeObject): void {
  if (next.metadata.resourceVersion) merged.metadata.resourceVersion = next.metadata.resourceVersion;
  else delete merged.metadata.resourceVersion;
}

/** pods/ephemeralcontainers changes only spec.ephemeralContainers (kube's dropNonEphemeralContainerUpdates). */
export function withEphemeralContainersFrom(current: KubeObject, next: KubeObject): KubeObject {
  const merged = structuredClone(current);
  const ephemeral = (next.spec as { ephemeralContainers?: unknown[] } | undefined)?.ephemeralContainers;
  const spec = { ...(merged.spec as object) } as Record<string, unknown>;
  if (ephemeral === undefined) delete spec.ephemeralContainers;
  else spec.ephemeralContainers = ephemeral;
  merged.spec = spec;
  keepClientVersion(merged, next);
  return merged;
}
