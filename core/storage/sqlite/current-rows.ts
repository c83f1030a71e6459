/**
 * The live rows reads found at one revision, kept to answer the next read of the same key at the same revision
 * without running the SQL statement again (a GET of one object read the same row ~8 µs under load, mostly in
 * bun:sqlite and SQLite's b-trees). kube's Cacher.Get sends a GET without a resourceVersion to the etcd3 store's Get,
 * a read of the latest revision: at an unchanged revision its answer is the row read before.
 * Every commit, this process's or another's, moves the current revision, after which the kept rows are no answer:
 * they are dropped at the first read of the new revision. Held only while the revision stands, bounded by the
 * characters of the values kept, and given back with the rest of the read memory when the server goes idle.
 */
import type { KeyValue } from "../storage.ts";

/** A larger value is read from SQLite each time: keeping it would cost more memory than its read costs time. */
const MAX_KEPT_VALUE_CHARS = 64 * 1024;
/** The values kept at most, in characters, before the rows are dropped and kept afresh. */
const MAX_KEPT_CHARS = 4 * 1024 * 1024;

export class CurrentRows {
  #revision = -1;
  readonly #rows = new Map<string, KeyValue>();
  #chars = 0;

  /** The row kept for `key` at `revision`, which must be the current one. */
  get(key: string, revision: number): KeyValue | undefined {
    return revision === this.#revision ? this.#rows.get(key) : undefined;
  }

  /** Keeps a row read at the current `revision`; rows kept at an older one are dropped. */
  keep(row: KeyValue, revision: number): void {
    const chars = row.value.length;
    if (revision !== this.#revision || this.#chars + chars > MAX_KEPT_CHARS) {
      this.clear();
      this.#revision = revision;
    }
    if (chars > MAX_KEPT_VALUE_CHARS) return;
    // Every later reader of the key shares this row: none may change it under the others.
    this.#rows.set(row.key, Object.freeze(row));
    this.#chars += chars;
  }

  clear(): void {
    this.#rows.clear();
    this.#chars = 0;
  }
}
