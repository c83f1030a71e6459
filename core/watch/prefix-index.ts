/**
 * Items registered under key prefixes, found by key. Keys are paths (`/core/pods/<ns>/<name>`) and most prefixes
 * are directories of them (`/`, `/core/pods/`, `/core/pods/<ns>/`): those are found with one map probe per `/` of
 * the key, however many resources are followed. Any other prefix (an object's own key) costs one probe per distinct
 * length of such prefixes in use.
 */
const SLASH = 47;

export class PrefixIndex<T> {
  readonly #byPrefix = new Map<string, Set<T>>();
  /** Distinct lengths of the prefixes that do not end in `/` → how many registered prefixes have that length. */
  readonly #otherLengths = new Map<number, number>();

  add(prefix: string, item: T): void {
    let items = this.#byPrefix.get(prefix);
    if (!items) {
      items = new Set();
      this.#byPrefix.set(prefix, items);
      if (!prefix.endsWith("/")) this.#otherLengths.set(prefix.length, (this.#otherLengths.get(prefix.length) ?? 0) + 1);
    }
    items.add(item);
  }

  remove(prefix: string, item: T): void {
    const items = this.#byPrefix.get(prefix);
    if (!items?.delete(item) || items.size > 0) return;
    this.#byPrefix.delete(prefix);
    if (prefix.endsWith("/")) return;
    const remaining = this.#otherLengths.get(prefix.length)! - 1;
    if (remaining === 0) this.#otherLengths.delete(prefix.length);
    else this.#otherLengths.set(prefix.length, remaining);
  }

  /** Every item whose prefix starts `key`, collected first so callers may remove items while handling them. */
  matching(key: string): T[] {
    const found: T[] = [];
    for (let slash = key.indexOf("/"); slash >= 0; slash = key.indexOf("/", slash + 1)) {
      const items = this.#byPrefix.get(key.slice(0, slash + 1));
      if (items) found.push(...items);
    }
    for (const length of this.#otherLengths.keys()) {
      // A cut ending in "/" names a directory prefix, which the loop above has already found.
      if (length > key.length || key.charCodeAt(length - 1) === SLASH) continue;
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
