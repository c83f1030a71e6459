/**
 * kube's value.PrefixTransformers: writes go through the first provider under its prefix; reads go to the first
 * provider whose prefix the stored bytes start with. The identity provider has no prefix, so it matches
 * everything but gives way to the next provider when the bytes are encrypted. A read that no provider takes fails
 * with kube's "no matching prefix found".
 */
import { performance } from "node:perf_hooks";
import type { TransformationRecorder } from "./metrics.ts";
import type { ValueTransformer } from "./providers.ts";

export interface PrefixedTransformer {
  /** `k8s:enc:<provider>:v1:<key name>:`, or "" for identity. */
  prefix: string;
  transformer: ValueTransformer;
}

export interface ReadResult {
  value: Uint8Array;
  /** Written by another than the first provider: a rewrite would store it with the current one. */
  stale: boolean;
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

  toStorage(value: Uint8Array, key: string): Uint8Array {
    const first = this.#transformers[0]!;
    const started = performance.now();
    let body: Uint8Array;
    try {
      body = first.transformer.toStorage(value, key);
    } catch (error) {
      this.#record("to_storage", first.prefix, 0, true);
      throw error;
    }
    this.#record("to_storage", first.prefix, (performance.now() - started) / 1000, false);
    const stored = new Uint8Array(this.#prefixes[0]!.length + body.length);
    stored.set(this.#prefixes[0]!);
    stored.set(body, this.#prefixes[0]!.length);
    return stored;
  }

  fromStorage(data: Uint8Array, key: string): ReadResult {
    const started = performance.now();
    let firstError: Error | undefined;
    for (const [index, { prefix, transformer }] of this.#transformers.entries()) {
      const bytes = this.#prefixes[index]!;
      if (!startsWith(data, bytes)) continue;
      const label = prefix === "" ? "identity" : prefix;
      try {
        const value = transformer.fromStorage(data.subarray(bytes.length), key);
        this.#record("from_storage", label, (performance.now() - started) / 1000, false);
        return { value, stale: index !== 0 };
      } catch (error) {
        // Only the identity provider gives way to the providers after it; a key that fails to decrypt is final.
        if (prefix !== "") {
          this.#record("from_storage", label, 0, true);
          throw error;
        }
        firstError ??= error as Error;
      }
    }
    this.#record("from_storage", "unknown", 0, true);
    throw firstError ?? new Error("no matching prefix found");
  }
}

function startsWith(data: Uint8Array, prefix: Uint8Array): boolean {
  if (data.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (data[i] !== prefix[i]) return false;
  return true;
}
