/**
 * Items registered under key prefixes, found by key. Keys are paths (`/core/pods/<ns>/<name>`) and most prefixes
 * are directories of them (`/`, `/core/pods/`, `/core/pods/<ns>/`): those are found with one map probe per `/` of
 * the key, however many resources are followed, and kept per directory of the key (its text up to its last `/`) until
 * a directory prefix is added or removed, so the keys of one collection and namespace (a burst of creates) cost one
 * probe, or none when the previous key had the same directory. Any other prefix (an object's own key) costs one probe
 * per distinct length of such prefixes in use.
 */
const SLASH = 47;
/** Directories whose items are kept at most; past it the kept lists are dropped and found again. */
const DIRECTORIES_KEPT = 1024;

export class PrefixIndex<T> {
  readonly #byPrefix = new Map<string, Set<T>>();
  /** Distinct lengths of the prefixes that do not end in `/` → how many registered prefixes have that length. */
  readonly #otherLengths = new Map<number, number>();
  /** Directory (a key up to its last `/`) → the items of its directory prefixes; never changed once made. */
  readonly #byDirectory = new Map<string, readonly T[]>();
  /** The directory matched last and its items, for a key of the same directory without a probe. */
  #lastDirectory = "";
  #lastItems: readonly T[] | undefined;

  add(prefix: string, item: T): void {
    let items = this.#byPrefix.get(prefix);
    if (!items) {
      items = new Set();
      this.#byPrefix.set(prefix, items);
      if (!prefix.endsWith("/")) this.#otherLengths.set(prefix.length, (this.#otherLengths.get(prefix.length) ?? 0) + 1);
    }
    if (!items.has(item) && prefix.endsWith("/")) this.#forgetDirectories();
    items.add(item);
  }

  remove(prefix: string, item: T): void {
    const items = this.#byPrefix.get(prefix);
    if (!items?.delete(item)) return;
    if (prefix.endsWith("/")) this.#forgetDirectories();
    if (items.size > 0) return;
    this.#byPrefix.delete(prefix);
    if (prefix.endsWith("/")) return;
    const remaining = this.#otherLengths.get(prefix.length)! - 1;
    if (remaining === 0) this.#otherLengths.delete(prefix.length);
    else this.#otherLengths.set(prefix.length, remaining);
  }

  /**
   * Every item whose prefix starts `key`, collected before the call returns (a list no later add or remove changes),
   * so callers may remove items while handling them.
   */
  matching(key: string): readonly T[] {
    const directories = this.#directoryItems(key);
    if (this.#otherLengths.size === 0) return directories;
    const found = [...directories];
    for (const length of this.#otherLengths.keys()) {
      // A cut ending in "/" names a directory prefix, which the loop above has already found.
      if (length > key.length || key.charCodeAt(length - 1) === SLASH) continue;
      const items = this.#byPrefix.get(key.slice(0, length));
      if (items) found.push(...items);
    }
    return found;
  }

  #directoryItems(key: string): readonly T[] {
    const cut = key.lastIndexOf("/") + 1;
    const last = this.#lastDirectory;
    if (this.#lastItems && cut === last.length && key.startsWith(last)) return this.#lastItems;
    const directory = key.slice(0, cut);
    let found = this.#byDirectory.get(directory);
    if (!found) {
      const items: T[] = [];
      for (let slash = directory.indexOf("/"); slash >= 0; slash = directory.indexOf("/", slash + 1)) {
        const registered = this.#byPrefix.get(directory.slice(0, slash + 1));
        if (registered) items.push(...registered);
      }
      if (this.#byDirectory.size >= DIRECTORIES_KEPT) this.#byDirectory.clear();
      this.#byDirectory.set(directory, found = items);
    }
    this.#lastDirectory = directory;
    this.#lastItems = found;
    return found;
  }

  #forgetDirectories(): void {
    this.#byDirectory.clear();
    this.#lastItems = undefined;
  }

  /** Every registered item. */
  all(): T[] {
    return [...this.#byPrefix.values()].flatMap((items) => [...items]);
  }
}
