/** Namespaced objects go only into a namespace that exists and is not terminating (kube's NamespaceLifecycle). */
import { newForbidden, newNotFound } from "../api/errors.ts";
import type { CollectionEvent, CollectionFollow } from "../api/client.ts";
import type { KubeObject } from "../api/types.ts";
import type { Storage } from "../storage/storage.ts";
import { decodeStored } from "./codec.ts";
import { collectionPrefix, objectKey } from "./keys.ts";
import type { ResourceType } from "../api/resource-type.ts";

const NAMESPACES: Pick<ResourceType, "group" | "resource" | "namespaced"> = { group: "", resource: "namespaces", namespaced: false };

function isTerminating(ns: KubeObject): boolean {
  return Boolean(ns.metadata.deletionTimestamp) || (ns.status as { phase?: string } | undefined)?.phase === "Terminating";
}

/**
 * kube's NamespaceLifecycle check: the namespace from a followed copy of the collection (kube's namespace lister),
 * read from storage when the copy does not show it open (kube's live lookup). The copy learns of each commit before
 * the write is answered, so a namespace just created or just marked for deletion is seen as it is.
 */
export class NamespaceGate {
  readonly #storage: Storage;
  readonly #follow: (prefix: string, onEvent: (event: CollectionEvent) => void) => Promise<CollectionFollow>;
  /** Names of the namespaces that exist and are not terminating, once the follow has listed them. */
  readonly #open = new Set<string>();
  #following: Promise<unknown> | undefined;
  #live = false;

  constructor(storage: Storage, follow: (prefix: string, onEvent: (event: CollectionEvent) => void) => Promise<CollectionFollow>) {
    this.#storage = storage;
    this.#follow = follow;
  }

  /** Rejects with kube's 404 or 403 unless `namespace` exists and is not terminating; at once when the copy shows it open. */
  check(namespace: string, type: ResourceType, name: string): void | Promise<void> {
    this.#following ??= this.#follow(collectionPrefix(NAMESPACES, ""), (event) => this.#note(event)).then(
      () => (this.#live = true),
      () => (this.#following = undefined),
    );
    if (this.#live && this.#open.has(namespace)) return;
    return this.#checkStored(namespace, type, name);
  }

  async #checkStored(namespace: string, type: ResourceType, name: string): Promise<void> {
    const kv = await this.#storage.get(objectKey(NAMESPACES, "", namespace));
    if (!kv) throw newNotFound({ group: "", resource: "namespaces" }, namespace);
    if (isTerminating(decodeStored(kv))) throw terminating(namespace, type, name);
  }

  #note({ type, object }: CollectionEvent): void {
    const name = String(object.metadata.name);
    if (type !== "DELETED" && !isTerminating(object)) this.#open.add(name);
    else this.#open.delete(name);
  }
}

function terminating(namespace: string, type: ResourceType, name: string) {
  const message = `unable to create new content in namespace ${namespace} because it is being terminated`;
  const resource = type.group === "" ? type.resource : `${type.resource}.${type.group}`;
  return newForbidden(`${resource} "${name}" is forbidden: ${message}`, {
    name,
    kind: type.resource,
    group: type.group || undefined,
    // kube's NamespaceLifecycle.Admit words the cause apart from the message.
    causes: [{ reason: "NamespaceTerminating", message: `namespace ${namespace} is being terminated`, field: "metadata.namespace" }],
  });
}
