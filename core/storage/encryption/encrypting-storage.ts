/**
 * Encryption at rest as a Storage decorator (kube applies its transformers inside the etcd3 store the same way):
 * values of the resources the EncryptionConfiguration names are written through their PrefixTransformers and
 * read back through them, for every path out of storage (reads, lists, write results, conflicts, history and
 * watch events). Plain values stay JSON text; encrypted ones are kube's bytes (`k8s:enc:...` + ciphertext) kept
 * as a one-byte-per-character string in the text store. A value that does not decrypt fails the request with
 * kube's 500 `unable to transform key ...` and never reaches a client as garbage. Local ciphers answer at once; a
 * KMS envelope may have to ask its plugin for a DEK, so watch events are handed on in commit order, at once while
 * none waits for a plugin.
 */
import { Buffer } from "node:buffer";
import { newInternalError } from "../../api/errors.ts";
import { isStorageError, type KeyValue, type Storage, StorageError, type StorageEvent, type WriteOp } from "../storage.ts";
import type { EncryptionConfigSource } from "./reload.ts";
import { ENCRYPTED_PREFIX } from "./providers.ts";
import { logger } from "../../log/mod.ts";
import { type MaybePromise, type PrefixTransformers, then } from "./prefix-transformers.ts";

/** kube's group-resource name of a storage key `/<group or core>/<resource>/...`: `secrets`, `deployments.apps`. */
export function groupResourceOfKey(key: string): string {
  const [, group, resource] = key.split("/");
  return group === "core" ? resource ?? "" : `${resource}.${group}`;
}

export function encryptingStorage(inner: Storage, config: EncryptionConfigSource): Storage {
  const transformersFor = (key: string): PrefixTransformers | undefined => config.current().transformers.get(groupResourceOfKey(key));

  const seal = (key: string, value: string): MaybePromise<string> => {
    const transformers = transformersFor(key);
    if (!transformers) return value;
    const rethrow = (error: unknown): never => {
      throw error;
    };
    // The identity provider stores the value itself.
    return then(
      transformers.toStorage(Buffer.from(value, "utf8"), key),
      (stored) => (startsWithEncrypted(stored) ? bytesAsText(stored) : value),
      rethrow,
    );
  };

  const open = (kv: KeyValue): MaybePromise<KeyValue> => {
    const transformers = transformersFor(kv.key);
    if (!transformers) return kv;
    const stored = kv.value.startsWith(ENCRYPTED_PREFIX) ? textAsBytes(kv.value) : Buffer.from(kv.value, "utf8");
    // kube's etcd3 store: storage.NewInternalErrorf("unable to transform key %q: %v", key, err).
    const failed = (error: unknown): never => {
      throw newInternalError(`unable to transform key ${JSON.stringify(kv.key)}: ${(error as Error).message}`);
    };
    try {
      return then(transformers.fromStorage(stored, kv.key), (read) => ({ ...kv, value: Buffer.from(read.value).toString("utf8") }), failed);
    } catch (error) {
      return failed(error);
    }
  };

  const openEvent = (event: StorageEvent): MaybePromise<StorageEvent> => {
    const kv = open(event.kv);
    const prev = event.prev && open(event.prev);
    if (kv instanceof Promise || prev instanceof Promise) {
      return Promise.all([kv, prev]).then(([kv, prev]) => ({ ...event, kv, prev }));
    }
    return { ...event, kv, prev };
  };

  const sealOp = async (op: WriteOp): Promise<WriteOp> => {
    if (op.op === "delete") return op;
    try {
      return { ...op, value: await seal(op.key, op.value) };
    } catch (error) {
      // kube's etcd3 store on a failed TransformToStorage: storage.NewInternalError(err.Error()).
      throw newInternalError((error as Error).message);
    }
  };

  return {
    currentRevision: () => inner.currentRevision(),
    compactedRevision: () => inner.compactedRevision(),
    get: async (key, revision) => {
      const kv = await inner.get(key, revision);
      return kv && open(kv);
    },
    range: async (prefix, options) => {
      const result = await inner.range(prefix, options);
      return { ...result, items: await Promise.all(result.items.map(open)) };
    },
    count: (prefix) => inner.count(prefix),
    write: async (op) => {
      try {
        const written = await inner.write(await sealOp(op));
        return op.op === "delete" ? await open(written) : { ...written, value: op.value };
      } catch (error) {
        if (isStorageError(error) && error.current) throw new StorageError(error.code, error.message, await open(error.current));
        throw error;
      }
    },
    eventsSince: async (prefix, afterRevision) => await Promise.all((await inner.eventsSince(prefix, afterRevision)).map(openEvent)),
    subscribe: (listener, onLost, onFailure) => {
      const ordered = inOrder(openEvent, listener);
      return inner.subscribe(
        ordered.event,
        onLost && ((lost) => ordered.after(() => onLost(lost))),
        onFailure && ((failure) => ordered.after(() => onFailure(failure))),
      );
    },
    compact: (revision) => inner.compact(revision),
    close: () => {
      config.stop();
      return inner.close();
    },
  };
}

const log = logger("storage");

/**
 * Hands each event to the listener as soon as it is opened, in commit order: at once while nothing is pending,
 * behind the pending ones otherwise. An event that cannot be opened is reported and skipped, as a throwing
 * subscriber is. `after` runs a step (telling of lost history or of a failure) behind the events before it.
 */
function inOrder(openEvent: (event: StorageEvent) => MaybePromise<StorageEvent>, listener: (event: StorageEvent) => void) {
  let pending: Promise<void> | undefined;
  const report = (error: unknown) => log.error("a watch event could not be decrypted", error);
  const settle = () => {
    const settled: Promise<void> = pending!.then(() => {
      if (pending === settled) pending = undefined;
    });
    pending = settled;
  };
  return {
    event(event: StorageEvent) {
      if (!pending) {
        const opened = openEvent(event);
        if (!(opened instanceof Promise)) return listener(opened);
        pending = opened.then(listener, report);
      } else {
        pending = pending.then(() => openEvent(event)).then(listener, report);
      }
      settle();
    },
    after(step: () => void) {
      if (!pending) return step();
      pending = pending.then(step).catch((error) => log.error("a storage subscriber threw", error));
      settle();
    },
  };
}

/**
 * Encrypted bytes kept in the text store: one character per byte, except NUL, written as U+0100, because SQLite
 * drivers such as node:sqlite end a TEXT value at its first NUL. Values stored with a raw NUL still read back.
 */
const NUL_STAND_IN = "\u0100";

function bytesAsText(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("latin1").replaceAll("\u0000", NUL_STAND_IN);
}

function textAsBytes(text: string): Uint8Array {
  return Buffer.from(text.replaceAll(NUL_STAND_IN, "\u0000"), "latin1");
}

function startsWithEncrypted(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, ENCRYPTED_PREFIX.length)).toString("latin1") === ENCRYPTED_PREFIX;
}
