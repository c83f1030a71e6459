/** All resource stores over one Storage, created on first use, plus the namespace checks they share. */
import { newForbidden, newNotFound } from "../api/errors.ts";
import type { Storage } from "../storage/storage.ts";
import { decodeStored } from "./codec.ts";
import { objectKey } from "./keys.ts";
import type { ResourceType } from "./resource-type.ts";
import { ResourceStore } from "./store.ts";
import { WriteGuards } from "./write-guard.ts";
import type { AdmissionHook } from "./admission-hook.ts";

const NAMESPACES: Pick<ResourceType, "group" | "resource" | "namespaced"> = { group: "", resource: "namespaces", namespaced: false };

export class Registry {
  readonly storage: Storage;
  /** Checks every store runs on users' creates and updates. */
  readonly writeGuards = new WriteGuards();
  /** The admission chain users' writes go through; set once at start (core/admission). */
  admission: AdmissionHook | undefined;
  readonly #stores = new Map<string, ResourceStore>();

  constructor(storage: Storage) {
    this.storage = storage;
  }

  store(type: ResourceType): ResourceStore {
    const id = `${type.group}/${type.version}/${type.resource}`;
    let store = this.#stores.get(id);
    if (!store) {
      store = new ResourceStore(type, {
        storage: this.storage,
        namespaceGate: (ns, t, name) => this.#checkNamespace(ns, t, name),
        writeGate: (attempt) => this.writeGuards.check(attempt),
        admission: () => this.admission,
      });
      this.#stores.set(id, store);
    }
    return store;
  }

  /** Namespaced objects go only into a namespace that exists and is not terminating (kube's NamespaceLifecycle). */
  async #checkNamespace(namespace: string, type: ResourceType, name: string): Promise<void> {
    const kv = await this.storage.get(objectKey(NAMESPACES, "", namespace));
    if (!kv) throw newNotFound({ group: "", resource: "namespaces" }, namespace);
    const ns = decodeStored(kv);
    if (ns.metadata.deletionTimestamp || (ns.status as { phase?: string } | undefined)?.phase === "Terminating") {
      const message = `unable to create new content in namespace ${namespace} because it is being terminated`;
      const resource = type.group === "" ? type.resource : `${type.resource}.${type.group}`;
      throw newForbidden(`${resource} "${name}" is forbidden: ${message}`, {
        name,
        kind: type.resource,
        group: type.group || undefined,
        causes: [{ reason: "NamespaceTerminating", message, field: "metadata.namespace" }],
      });
    }
  }
}
