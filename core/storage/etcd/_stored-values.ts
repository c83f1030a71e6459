/**
 * The way between kubun's keys and values and etcd's bytes, in kube's order (etcd3 store): a write is encoded by the
 * ValueCodec, then sealed by the resource's transformers from the EncryptionConfiguration, with the full etcd key as
 * authenticated data; a read is opened by the transformers, then decoded. A value that does not open fails with
 * kube's 500 `unable to transform key "<key>": <error>`, one that does not decode with the codec's error (500). Keys are `--etcd-prefix` + the KeyLayout's backend key.
 */
import { newInternalError, newUnknownError } from "../../api/errors.ts";
import { type EncryptionConfigSource, groupResourceOfKey } from "../encryption/mod.ts";
import type { KeyLayout, ValueCodec } from "../layout.ts";
import type { KeyValue, StorageEvent } from "../storage.ts";
import type { EtcdEvent, EtcdKeyValue } from "./_messages.ts";

const utf8 = new TextEncoder();
const text = new TextDecoder();

export class StoredValues {
  readonly #prefix: string;
  readonly #layout: KeyLayout;
  readonly #codec: ValueCodec;
  readonly #encryption: EncryptionConfigSource | undefined;

  /** `prefix` is --etcd-prefix as kube joins it: `path.Join("/", prefix)`, so `/registry`. */
  constructor(prefix: string, layout: KeyLayout, codec: ValueCodec, encryption?: EncryptionConfigSource) {
    this.#prefix = `/${prefix.split("/").filter(Boolean).join("/")}`.replace(/^\/$/, "");
    this.#layout = layout;
    this.#codec = codec;
    this.#encryption = encryption;
  }

  /** The etcd key (or key prefix) of a kubun key (or key prefix), as bytes. */
  backendKey(key: string): Uint8Array {
    const backend = this.#layout.toBackendKey(key);
    return utf8.encode(this.#prefix + (backend.startsWith("/") ? backend : `/${backend}`));
  }

  /** Where the whole store lives in etcd: every key under --etcd-prefix. */
  storeRange(): { key: Uint8Array; rangeEnd: Uint8Array } {
    const key = utf8.encode(`${this.#prefix}/`);
    return { key, rangeEnd: prefixEnd(key) };
  }

  /** kubun's key of an etcd key; undefined for keys outside the prefix or that kubun does not serve. */
  kubunKey(etcdKey: Uint8Array): string | undefined {
    const full = text.decode(etcdKey);
    if (!full.startsWith(`${this.#prefix}/`)) return undefined;
    return this.#layout.fromBackendKey(full.slice(this.#prefix.length));
  }

  async encode(key: string, jsonText: string): Promise<Uint8Array> {
    const encoded = this.#codec.encode(key, jsonText);
    const transformers = this.#encryption?.current().transformers.get(groupResourceOfKey(key));
    if (!transformers) return encoded;
    try {
      return await transformers.toStorage(encoded, text.decode(this.backendKey(key)));
    } catch (error) {
      // kube's etcd3 store on a failed TransformToStorage: storage.NewInternalError(err.Error()).
      throw newInternalError((error as Error).message);
    }
  }

  async decode(key: string, etcdKey: Uint8Array, stored: Uint8Array): Promise<string> {
    const transformers = this.#encryption?.current().transformers.get(groupResourceOfKey(key));
    let opened = stored;
    const fullKey = text.decode(etcdKey);
    try {
      if (transformers) opened = (await transformers.fromStorage(stored, fullKey)).value;
    } catch (error) {
      // kube's etcd3 store: storage.NewInternalErrorf("unable to transform key %q: %v", key, err).
      throw newInternalError(`unable to transform key ${JSON.stringify(fullKey)}: ${(error as Error).message}`);
    }
    try {
      return this.#codec.decode(key, opened);
    } catch (error) {
      // kube's store returns the codec's error as it is, which ErrorToAPIStatus answers with 500 and no reason.
      throw newUnknownError((error as Error).message);
    }
  }

  async keyValue(key: string, kv: EtcdKeyValue): Promise<KeyValue> {
    return { key, value: await this.decode(key, kv.key, kv.value), createRevision: kv.createRevision, modRevision: kv.modRevision };
  }

  /**
   * An etcd watch event as the contract's: a PUT of a key's first version is ADDED; a DELETE carries the last value
   * (from prev_kv) at the delete's revision. Undefined for keys kubun does not serve, and for a DELETE whose
   * previous value etcd no longer had (kube's watcher fails such an event too).
   */
  async event(event: EtcdEvent): Promise<StorageEvent | undefined> {
    const key = this.kubunKey(event.kv.key);
    if (key === undefined) return undefined;
    const prev = event.prevKv ? await this.keyValue(key, event.prevKv) : undefined;
    const revision = event.kv.modRevision;
    if (event.type === 1) {
      if (!prev) return undefined;
      return { type: "DELETED", revision, kv: { ...prev, modRevision: revision }, prev };
    }
    const kv = await this.keyValue(key, event.kv);
    return event.kv.version === 1 ? { type: "ADDED", revision, kv } : { type: "MODIFIED", revision, kv, prev };
  }
}

/** etcd's clientv3.GetPrefixRangeEnd: the key with its last byte below 0xff incremented, the rest dropped. */
export function prefixEnd(prefix: Uint8Array): Uint8Array {
  for (let i = prefix.length - 1; i >= 0; i--) {
    if (prefix[i]! < 0xff) {
      const end = prefix.slice(0, i + 1);
      end[i] = end[i]! + 1;
      return end;
    }
  }
  return new Uint8Array([0]);
}
