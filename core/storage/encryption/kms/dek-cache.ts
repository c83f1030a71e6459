/**
 * kube's DEK cache of the envelope transformers (k8s.io/utils/lru keyed by the base64 of the encrypted DEK): the
 * most recently used `size` DEKs, as ready transformers; a size of 0 or less disables it (the configuration's
 * negative cachesize).
 */
import { Buffer } from "node:buffer";
import { forgetOldest } from "../../../runtime/bounded.ts";

export class DekCache<T> {
  readonly #entries = new Map<string, T>();
  readonly #size: number;

  constructor(size: number) {
    this.#size = size;
  }

  get(encryptedDek: Uint8Array): T | undefined {
    const key = Buffer.from(encryptedDek).toString("base64");
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    // Map order is insertion order: moving the entry to the end marks it most recently used.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry;
  }

  add(encryptedDek: Uint8Array, entry: T): void {
    if (this.#size <= 0) return;
    const key = Buffer.from(encryptedDek).toString("base64");
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    forgetOldest(this.#entries, this.#size);
  }

  get length(): number {
    return this.#entries.size;
  }
}
