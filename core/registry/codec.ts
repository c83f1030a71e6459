/** Stored form of an object: its JSON without metadata.resourceVersion, which is the key's modRevision. */
import { parseJSONExact } from "../api/exact-integers.ts";
import type { KubeObject } from "../api/types.ts";
import type { KeyValue } from "../storage/storage.ts";

export function decodeStored(kv: KeyValue): KubeObject {
  const obj = parseJSONExact(kv.value) as KubeObject;
  obj.metadata.resourceVersion = String(kv.modRevision);
  return obj;
}

export function encodeForStorage(obj: KubeObject): string {
  return JSON.stringify({ ...obj, metadata: { ...obj.metadata, resourceVersion: undefined } });
}

/** Puts apiVersion, kind and metadata first, as kube serializes objects. */
export function withEnvelopeFirst(obj: KubeObject, apiVersion: string, kind: string): KubeObject {
  const { apiVersion: _a, kind: _k, metadata, ...rest } = obj;
  return { apiVersion, kind, metadata, ...rest };
}
