/**
 * kube's value.PrefixTransformers: writes go through the first provider under its prefix; reads go to the first
 * provider whose prefix the stored bytes start with. The identity provider has no prefix, so it matches
 * everything but gives way to the next provider when the bytes are encrypted. A read that no provider takes fails
 * with kube's "no matching prefix found".
 */
import { performance } from "node:perf_hooks";
import type { TransformationRecorder } from "./metrics.ts";

export type MaybePromise<T> = T | Promise<T>;

/** A provider's transformer: the local ciphers answer at once, KMS envelopes may have to ask their plugin. */
export interface StorageTransformer {
  /** The stored bytes after the prefix → the value; fails when they do not decrypt. */
  fromStorage(data: Uint8Array, key: string): MaybePromise<Uint8Array>;
  toStorage(value: Uint8Array, key: string): MaybePromise<Uint8Array>;
}

export interface PrefixedTransformer {
  /** `k8s:enc:<provider>:v1:<key name>:` (`k8s:enc:kms:v1:<name>:` for KMS), or "" for identity. */
  prefix: string;
  transformer: StorageTransformer;
}

export interface ReadResult {
  value: Uint8Array;
  /** Written by another than the first provider: a rewrite would store it with the current one. */
  stale: boolean;
}

/** Runs `next` on the value now, or once the promise settles; a synchronous failure stays synchronous. */
export function then<T, U>(value: MaybePromise<T>, next: (value: T) => U, failed: (error: unknown) => never): MaybePromise<U> {
  if (value instanceof Promise) return value.then(next, failed);
  return next(value);
}

export class PrefixTransformers {
  readonly #transformers: PrefixedTransformer[];
  readonly #prefixes: Uint8Array[];

  readonly #record: TransformationRecorder;

  constructor(transformers: PrefixedTransformer[], record: TransformationRecorder = () => {}) {
    if (transformers.length === 0) throw new Error("at least one provider is required");
    this.#transformers = transformers;
    this.#record = record;
    this.#prefixes = transformers.map(({ prefix }) => new TextEncoder().encode(prefix));
  }

  toStorage(value: Uint8Array, key: string): MaybePromise<Uint8Array> {
    const first = this.#transformers[0]!;
    const prefix = this.#prefixes[0]!;
    const started = performance.now();
    const fail = (error: unknown): never => {
      this.#record("to_storage", first.prefix, 0, error);
      throw error;
    };
    let body: MaybePromise<Uint8Array>;
    try {
      body = first.transformer.toStorage(value, key);
    } catch (error) {
      return fail(error);
    }
    return then(body, (sealed) => {
      this.#record("to_storage", first.prefix, (performance.now() - started) / 1000);
      const stored = new Uint8Array(prefix.length + sealed.length);
      stored.set(prefix);
      stored.set(sealed, prefix.length);
      return stored;
    }, fail);
  }

  fromStorage(data: Uint8Array, key: string): MaybePromise<ReadResult> {
    const started = performance.now();
    let firstError: Error | undefined;
    for (const [index, { prefix, transformer }] of this.#transformers.entries()) {
      const bytes = this.#prefixes[index]!;
      if (!startsWith(data, bytes)) continue;
      const label = prefix === "" ? "identity" : prefix;
      const succeeded = (value: Uint8Array): ReadResult => {
        this.#record("from_storage", label, (performance.now() - started) / 1000);
        return { value, stale: index !== 0 };
      };
      // Only the identity provider gives way to the providers after it; a key that fails to decrypt is final.
      if (prefix !== "") {
        const fail = (error: unknown): never => {
          this.#record("from_storage", label, 0, error);
          throw error;
        };
        let opened: MaybePromise<Uint8Array>;
        try {
          opened = transformer.fromStorage(data.subarray(bytes.length), key);
        } catch (error) {
          return fail(error);
        }
        return then(opened, succeeded, fail);
      }
      try {
        // The identity provider is synchronous.
        return succeeded(transformer.fromStorage(data, key) as Uint8Array);
      } catch (error) {
        firstError ??= error as Error;
      }
    }
    const failure = firstError ?? new Error("no matching prefix found");
    this.#record("from_storage", "unknown", 0, failure);
    throw failure;
  }
}

function startsWith(data: Uint8Array, prefix: Uint8Array): boolean {
  if (data.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (data[i] !== prefix[i]) return false;
  return true;
}
