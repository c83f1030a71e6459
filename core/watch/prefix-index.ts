/**
 * Items registered under key prefixes, found by key. Lookup costs one map probe per distinct
 * prefix length in use (a handful: `/pods/`, `/pods/<ns>/`, ...), not one compare per watcher.
 */
export class PrefixIndex<T> {
  readonly #byPrefix = new Map<string, Set<T>>();
  /** Distinct prefix lengths in use → how many registered prefixes have that length. */
  readonly #lengths = new Map<number, number>();

  add(prefix: string, item: T): void {
    let items = this.#byPrefix.get(prefix);
    if (!items) {
      items = new Set();
      this.#byPrefix.set(prefix, items);
      this.#lengths.set(prefix.length, (this.#lengths.get(prefix.length) ?? 0) + 1);
    }
    items.add(item);
  }

  remove(prefix: string, item: T): void {
    const items = this.#byPrefix.get(prefix);
    if (!items?.delete(item) || items.size > 0) return;
    this.#byPrefix.delete(prefix);
    const remaining = this.#lengths.get(prefix.length)! - 1;
    if (remaining === 0) this.#lengths.delete(prefix.length);
    else this.#lengths.set(prefix.length, remaining);
  }

  /** Every item whose prefix starts `key`, collected first so callers may remove items while handling them. */
  matching(key: string): T[] {
    const found: T[] = [];
    for (const length of this.#lengths.keys()) {
      if (length > key.length) continue;
      const items = this.#byPrefix.get(key.slice(0, length));
      if (items) found.push(...items);
    }
    return found;
  }

  /** Every registered item. */
  all(): T[] {
    return [...this.#byPrefix.values()].flatMap((items) => [...items]);
  }
}
