/**
 * A shared informer (client-go's SharedIndexInformer, in-process): follows one collection through the store's
 * commit stream, keeps the current objects in a cache, and tells handlers about each change. A handler added
 * late first gets every cached object as an add, so no controller depends on when it subscribed. An informer of
 * one object name (in every namespace) caches only the objects of that name: a controller that keeps one named
 * object per namespace does not hold a parsed copy of the whole collection.
 */
import type { KubeObject } from "../../api/types.ts";
import type { CollectionFollow } from "../../api/client.ts";
import { collectionPrefix } from "../../registry/keys.ts";
import type { ResourceType } from "../../api/resource-type.ts";
import type { Registry } from "../../registry/registry.ts";
import type { KeyValue } from "../../storage/storage.ts";
import { logger } from "../../log/mod.ts";

const log = logger("informer");

export interface InformerEvent {
  type: "ADDED" | "MODIFIED" | "DELETED";
  object: KubeObject;
  /** The cached object a MODIFIED or DELETED event replaces. */
  old?: KubeObject;
}

export type InformerHandler = (event: InformerEvent) => void;

/** `namespace/name`, or `name` for cluster-scoped objects (client-go's MetaNamespaceKeyFunc). */
export function keyOf(obj: KubeObject): string {
  const { namespace, name } = obj.metadata;
  return namespace ? `${namespace}/${name}` : String(name);
}

export function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf("/");
  return slash === -1 ? { namespace: "", name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

export interface InformerOptions {
  /** Only objects of this name. */
  name?: string;
}

export class Informer {
  readonly type: ResourceType;
  readonly #cache = new Map<string, KubeObject>();
  readonly #handlers = new Set<InformerHandler>();
  readonly #options: InformerOptions;
  #follow?: CollectionFollow;

  constructor(type: ResourceType, options: InformerOptions = {}) {
    this.type = type;
    this.#options = options;
  }

  /**
   * Lists and starts following; resolves once the cache holds the whole collection (or its objects of the name).
   * After lost watch history the collection is listed again and the difference to the cache handed on as changes.
   */
  async start(registry: Pick<Registry, "follow">): Promise<void> {
    const { name } = this.#options;
    // Storage keys end in `/<name>` (registry/keys.ts), so other objects are skipped before they are decoded.
    const suffix = name === undefined ? undefined : `/${name}`;
    const keep = suffix === undefined ? undefined : (kv: KeyValue) => kv.key.endsWith(suffix);
    this.#follow = await registry.follow(
      collectionPrefix(this.type, ""),
      (event) => this.#apply(event.type, event.object),
      keep,
      () => this.#cache.values(),
    );
  }

  stop(): void {
    this.#follow?.stop();
    this.#handlers.clear();
  }

  get(namespace: string, name: string): KubeObject | undefined {
    return this.#cache.get(namespace ? `${namespace}/${name}` : name);
  }

  /** Cached objects, optionally only those of one namespace. */
  list(namespace?: string): KubeObject[] {
    const all = [...this.#cache.values()];
    return namespace === undefined ? all : all.filter((obj) => (obj.metadata.namespace ?? "") === namespace);
  }

  /** Adds a handler (replaying the cache as ADDED); the returned function removes it. */
  onChange(handler: InformerHandler): () => void {
    this.#handlers.add(handler);
    for (const object of this.#cache.values()) handler({ type: "ADDED", object });
    return () => this.#handlers.delete(handler);
  }

  #apply(type: InformerEvent["type"], object: KubeObject): void {
    const key = keyOf(object);
    const old = this.#cache.get(key);
    if (type === "DELETED") this.#cache.delete(key);
    else this.#cache.set(key, object);
    const event: InformerEvent = { type: type === "ADDED" && old ? "MODIFIED" : type, object, old };
    for (const handler of this.#handlers) {
      try {
        handler(event);
      } catch (error) {
        log.error(`${this.type.resource} informer handler failed`, error);
      }
    }
  }
}
