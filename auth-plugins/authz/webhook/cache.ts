/** The webhook's decision cache (kube's LRUExpireCache): bounded, least recently used out first, each entry with its own TTL. */
import { forgetOldest } from "../../../core/runtime/bounded.ts";

export class ExpiringCache<V> {
  #entries = new Map<string, { value: V; expires: number }>();
  #maxEntries: number;
  #now: () => number;

  constructor(maxEntries: number, now: () => number = Date.now) {
    this.#maxEntries = maxEntries;
    this.#now = now;
  }

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.expires <= this.#now()) return undefined;
    // Re-inserting moves the entry to the end of Map order: the most recently used.
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, ttlMs: number): void {
    if (ttlMs <= 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, { value, expires: this.#now() + ttlMs });
    forgetOldest(this.#entries, this.#maxEntries);
  }
}
