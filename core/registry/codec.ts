/** Stored form of an object: its JSON without metadata.resourceVersion, which is the key's modRevision. */
import { parseJSONExact } from "../api/exact-integers.ts";
import { type KubeObject, withoutTypeMeta } from "../api/types.ts";
import type { KeyValue } from "../storage/storage.ts";

/** The object with metadata.resourceVersion set from the key's modRevision, as kube's etcd3 versioner does; it leads metadata. */
export function decodeStored(kv: KeyValue): KubeObject {
  const obj = parseJSONExact(kv.value) as KubeObject;
  obj.metadata = { resourceVersion: String(kv.modRevision), ...obj.metadata };
  return obj;
}

/**
 * The stored object as parsed, without the resourceVersion decodeStored puts first in metadata (a copy of metadata):
 * for in-process followers that read only identity and references and never answer the object.
 */
export function decodeStoredWithoutVersion(kv: KeyValue): KubeObject {
  return parseJSONExact(kv.value) as KubeObject;
}

/** The start of every stored object this server writes (encodeForStorage after withEnvelopeFirst), up to metadata's first key. */
const STORED_HEAD = /^\{"apiVersion":"[^"\\]*","kind":"[^"\\]*","metadata":\{/;

/**
 * The text JSON.stringify(decodeStored(kv)) gives, made without parsing where the stored text has the usual head:
 * the stored text with the resourceVersion put first in metadata. Stored text is JSON.stringify output already, so
 * its numbers (exact int64 included) and strings are written as a re-serialization would write them.
 */
export function storedTextWithVersion(kv: KeyValue): string {
  return withVersionSpliced(kv, true);
}

/**
 * The text of the stored object as an item of a built-in kind's list (withoutTypeMeta): where the stored text has
 * the usual head, its TypeMeta is cut off with the head, so an item costs no more than storedTextWithVersion.
 */
export function storedListItemText(kv: KeyValue): string {
  return withVersionSpliced(kv, false);
}

function withVersionSpliced(kv: KeyValue, typeMeta: boolean): string {
  const head = STORED_HEAD.exec(kv.value);
  if (!head) return JSON.stringify(typeMeta ? decodeStored(kv) : withoutTypeMeta(decodeStored(kv)));
  const at = head[0].length;
  const separator = kv.value.charCodeAt(at) === 0x7d /* } */ ? "" : ",";
  const start = typeMeta ? kv.value.slice(0, at) : '{"metadata":{';
  return `${start}"resourceVersion":"${kv.modRevision}"${separator}${kv.value.slice(at)}`;
}

/**
 * The stored text never holds a resourceVersion (the row's revision is it). Without one, the object is stringified as
 * it is: the same text as through the copies that drop it, without making them (~0.1-0.3 µs a create).
 */
export function encodeForStorage(obj: KubeObject): string {
  if (obj.metadata.resourceVersion === undefined) return JSON.stringify(obj);
  return JSON.stringify({ ...obj, metadata: { ...obj.metadata, resourceVersion: undefined } });
}

/**
 * Puts apiVersion, kind and metadata first, as kube serializes objects: a copy, or the object itself when it has them
 * first already (as clients send them), which the copy would equal member for member (~0.5 µs a create).
 */
export function withEnvelopeFirst(obj: KubeObject, apiVersion: string, kind: string): KubeObject {
  if (obj.apiVersion === apiVersion && obj.kind === kind && hasEnvelopeFirst(obj)) return obj;
  const { apiVersion: _a, kind: _k, metadata, ...rest } = obj;
  return { apiVersion, kind, metadata, ...rest };
}

const ENVELOPE = ["apiVersion", "kind", "metadata"];

/** Whether the object's first three members are apiVersion, kind and metadata, in that order. */
function hasEnvelopeFirst(obj: KubeObject): boolean {
  let index = 0;
  for (const member in obj) {
    if (member !== ENVELOPE[index]) return false;
    if (++index === ENVELOPE.length) return true;
  }
  return false;
}
