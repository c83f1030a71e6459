/**
 * Encryption at rest as a Storage decorator (kube applies its transformers inside the etcd3 store the same way):
 * values of the resources the EncryptionConfiguration names are written through their PrefixTransformers and
 * read back through them, for every path out of storage (reads, lists, write results, conflicts, history and
 * watch events). Plain values stay JSON text; encrypted ones are kube's bytes (`k8s:enc:...` + ciphertext) kept
 * as a one-byte-per-character string in the text store. A value that does not decrypt fails the request with
 * kube's 500 `unable to transform key ...` and never reaches a client as garbage.
 */
import { Buffer } from "node:buffer";
import { newInternalError } from "../../api/errors.ts";
import { isStorageError, type KeyValue, type Storage, StorageError, type StorageEvent, type WriteOp } from "../storage.ts";
import type { EncryptionConfigSource } from "./reload.ts";
import { ENCRYPTED_PREFIX } from "./providers.ts";
import type { PrefixTransformers } from "./prefix-transformers.ts";

/** kube's group-resource name of a storage key `/<group or core>/<resource>/...`: `secrets`, `deployments.apps`. */
export function groupResourceOfKey(key: string): string {
  const [, group, resource] = key.split("/");
  return group === "core" ? resource ?? "" : `${resource}.${group}`;
}

export function encryptingStorage(inner: Storage, config: EncryptionConfigSource): Storage {
  const transformersFor = (key: string): PrefixTransformers | undefined => config.current().get(groupResourceOfKey(key));

  const seal = (key: string, value: string): string => {
    const transformers = transformersFor(key);
    if (!transformers) return value;
    const stored = transformers.toStorage(Buffer.from(value, "utf8"), key);
    // The identity provider stores the value itself.
    return startsWithEncrypted(stored) ? Buffer.from(stored).toString("latin1") : value;
  };

  const open = (kv: KeyValue): KeyValue => {
    const transformers = transformersFor(kv.key);
    if (!transformers) return kv;
    const stored = kv.value.startsWith(ENCRYPTED_PREFIX) ? Buffer.from(kv.value, "latin1") : Buffer.from(kv.value, "utf8");
    try {
      return { ...kv, value: Buffer.from(transformers.fromStorage(stored, kv.key).value).toString("utf8") };
    } catch (error) {
      // kube's etcd3 store: storage.NewInternalErrorf("unable to transform key %q: %v", key, err).
      throw newInternalError(`unable to transform key ${JSON.stringify(kv.key)}: ${(error as Error).message}`);
    }
  };

  const openEvent = (event: StorageEvent): StorageEvent => ({ ...event, kv: open(event.kv), prev: event.prev && open(event.prev) });

  const sealOp = (op: WriteOp): WriteOp => (op.op === "delete" ? op : { ...op, value: seal(op.key, op.value) });

  return {
    currentRevision: () => inner.currentRevision(),
    compactedRevision: () => inner.compactedRevision(),
    get: async (key, revision) => {
      const kv = await inner.get(key, revision);
      return kv && open(kv);
    },
    range: async (prefix, options) => {
      const result = await inner.range(prefix, options);
      return { ...result, items: result.items.map(open) };
    },
    count: (prefix) => inner.count(prefix),
    write: async (op) => {
      try {
        const written = await inner.write(sealOp(op));
        return op.op === "delete" ? open(written) : { ...written, value: op.value };
      } catch (error) {
        if (isStorageError(error) && error.current) throw new StorageError(error.code, error.message, open(error.current));
        throw error;
      }
    },
    eventsSince: async (prefix, afterRevision) => (await inner.eventsSince(prefix, afterRevision)).map(openEvent),
    subscribe: (listener) => inner.subscribe((event) => listener(openEvent(event))),
    compact: (revision) => inner.compact(revision),
    close: () => {
      config.stop();
      return inner.close();
    },
  };
}

function startsWithEncrypted(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, ENCRYPTED_PREFIX.length)).toString("latin1") === ENCRYPTED_PREFIX;
}
