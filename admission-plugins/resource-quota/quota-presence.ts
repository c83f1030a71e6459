/**
 * Which namespaces hold ResourceQuotas, from a followed copy of the collection (kube's quotaAccessor lister): a
 * namespace without any needs no quota evaluation, so its writes skip listing quotas from storage. The copy learns
 * of each commit before the write is answered, so a quota just created is seen by the next write.
 */
import type { CollectionEvent, CollectionFollow } from "../../core/api/client.ts";

export class QuotaPresence {
  readonly #follow: (onEvent: (event: CollectionEvent) => void) => Promise<CollectionFollow>;
  /** Quota names by namespace, once the follow has listed them. */
  readonly #names = new Map<string, Set<string>>();
  #following: Promise<unknown> | undefined;
  #live = false;

  readonly #onChange: (event: CollectionEvent) => void;

  /** `onChange` hears every quota added or changed once the copy follows the collection. */
  constructor(
    follow: (onEvent: (event: CollectionEvent) => void) => Promise<CollectionFollow>,
    onChange: (event: CollectionEvent) => void,
  ) {
    this.#follow = follow;
    this.#onChange = onChange;
  }

  /** True when `namespace` surely holds no quota; false when it may (or the copy is not listed yet). */
  surelyNone(namespace: string): boolean {
    this.#following ??= this.#follow((event) => this.#note(event)).then(
      () => (this.#live = true),
      () => (this.#following = undefined),
    );
    return this.#live && !this.#names.has(namespace);
  }

  #note({ type, object }: CollectionEvent): void {
    const namespace = String(object.metadata.namespace);
    const names = this.#names.get(namespace) ?? new Set<string>();
    if (type === "DELETED") names.delete(String(object.metadata.name));
    else {
      names.add(String(object.metadata.name));
      this.#onChange({ type, object });
    }
    if (names.size > 0) this.#names.set(namespace, names);
    else this.#names.delete(namespace);
  }
}
