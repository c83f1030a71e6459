/** Server-owned metadata on create and update (kube's rest.BeforeCreate / BeforeUpdate). */
import { type FieldError, newBadRequest } from "../api/errors.ts";
import { isPlainObject, type KubeObject, type ObjectMeta } from "../api/types.ts";
import { jsonEqual } from "../apply/json-patch.ts";

const GENERATE_NAME_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

/** The last second nowTimestamp formatted: writes within one second share it (formatting a Date costs ~0.4 µs). */
let lastStamp = { epochSecond: NaN, text: "" };

/** A metav1.Time now: RFC 3339 in UTC, whole seconds. */
export function nowTimestamp(): string {
  const epochSecond = Math.floor(Date.now() / 1000);
  if (epochSecond !== lastStamp.epochSecond) {
    lastStamp = { epochSecond, text: `${new Date(epochSecond * 1000).toISOString().slice(0, 19)}Z` };
  }
  return lastStamp.text;
}

/** kube's names.SimpleNameGenerator: the prefix plus five random characters from a vowel-free alphabet. */
export function generateName(prefix: string): string {
  let suffix = "";
  for (let i = 0; i < 5; i++) suffix += GENERATE_NAME_ALPHABET[Math.floor(Math.random() * GENERATE_NAME_ALPHABET.length)];
  return `${prefix.slice(0, 63 - 5)}${suffix}`;
}

/**
 * kube's rest.EnsureObjectNamespaceMatchesRequestNamespace: the body's namespace must agree with the URL's; an absent
 * one is taken from the URL, and an empty URL namespace (namespaces//configmaps) clears the body's, which
 * validation then finds missing.
 */
export function reconcileNamespace(meta: ObjectMeta, urlNamespace: string, namespaced: boolean): void {
  if (!namespaced) {
    delete meta.namespace;
    return;
  }
  if (meta.namespace && urlNamespace !== "" && meta.namespace !== urlNamespace) {
    throw newBadRequest("the namespace of the provided object does not match the namespace sent on the request");
  }
  meta.namespace = urlNamespace;
}

/**
 * ObjectMeta's collections and generateName are `omitempty` in Go: an empty one a body (or a patch removing the last
 * label) leaves is gone once kube decodes the object, for custom resources too (schemaobjectmeta.Coerce).
 */
export function dropEmptyMetadata(meta: ObjectMeta): void {
  for (const key of ["labels", "annotations"] as const) {
    const value = meta[key];
    if (isPlainObject(value) && Object.keys(value).length === 0) delete meta[key];
  }
  // An empty managedFields list is left to the field manager, for which it means "keep the live entries".
  for (const key of ["finalizers", "ownerReferences"] as const) {
    const value = meta[key];
    if (Array.isArray(value) && value.length === 0) delete meta[key];
  }
  if (meta.generateName === "") delete meta.generateName;
}

export function prepareCreateMeta(obj: KubeObject, tracksGeneration: boolean): void {
  const meta = obj.metadata;
  if (!meta.name && meta.generateName) meta.name = generateName(meta.generateName);
  meta.uid = crypto.randomUUID();
  meta.creationTimestamp = nowTimestamp();
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  delete meta.resourceVersion;
  if (tracksGeneration) meta.generation = 1;
  else delete meta.generation;
}

/** Copies what clients may not change from the stored object; reports a changed uid as kube's immutable-field error. */
export function prepareUpdateMeta(next: KubeObject, current: KubeObject): FieldError[] {
  const meta = next.metadata;
  const old = current.metadata;
  const errors: FieldError[] = [];
  if (!meta.uid) meta.uid = old.uid;
  else if (meta.uid !== old.uid) {
    errors.push({ type: "FieldValueInvalid", field: "metadata.uid", value: meta.uid, detail: "field is immutable" });
  }
  meta.creationTimestamp = old.creationTimestamp;
  setOrDelete(meta, "deletionTimestamp", old.deletionTimestamp);
  setOrDelete(meta, "deletionGracePeriodSeconds", old.deletionGracePeriodSeconds);
  setOrDelete(meta, "generation", old.generation);
  delete meta.selfLink;
  return errors;
}

function setOrDelete<K extends keyof ObjectMeta>(meta: ObjectMeta, key: K, value: ObjectMeta[K]): void {
  if (value === undefined) delete meta[key];
  else meta[key] = value;
}

/**
 * Whether two objects hold the same spec: everything but metadata and status, where a change bumps generation. Compared
 * as Go's apiequality.Semantic.DeepEqual compares the structs, so members in another order are the same spec.
 */
function sameSpec(a: KubeObject, b: KubeObject): boolean {
  const { metadata: _am, status: _as, apiVersion: _aa, kind: _ak, ...specA } = a;
  const { metadata: _bm, status: _bs, apiVersion: _ba, kind: _bk, ...specB } = b;
  return jsonEqual(specA, specB);
}

/**
 * Whether a main-resource update bumps the generation: its spec changed, or (deploymentStrategy.PrepareForUpdate, as
 * a Deployment's annotations are copied to its ReplicaSets) its annotations did. Go's Semantic.DeepEqual takes a nil
 * map for an empty one.
 */
export function bumpsGeneration(next: KubeObject, current: KubeObject, countsAnnotations: boolean): boolean {
  if (!sameSpec(next, current)) return true;
  return countsAnnotations && !jsonEqual(next.metadata.annotations ?? {}, current.metadata.annotations ?? {});
}
