/** All resource stores over one Storage, created on first use, plus the namespace checks they share. */
import type { Storage } from "../storage/storage.ts";
import type { ResourceType } from "./resource-type.ts";
import type { StoreExtension } from "./store-extension.ts";
import { ResourceStore } from "./store.ts";
import { WriteGuards } from "./write-guard.ts";
import { WriteHooks } from "./write-hook.ts";
import { checkNamespaceOpen } from "./namespace-gate.ts";
import type { AdmissionHook } from "./admission-hook.ts";

export class Registry {
  readonly storage: Storage;
  /** Checks every store runs on users' creates and updates. */
  readonly writeGuards = new WriteGuards();
  /** Steps every store runs on all creates and updates, the server's own included (write-hook.ts). */
  readonly writeHooks = new WriteHooks();
  /** The admission chain users' writes go through; set once at start (core/admission). */
  admission: AdmissionHook | undefined;
  readonly #stores = new Map<string, ResourceStore>();
  readonly #extensions = new Map<string, StoreExtension>();

  constructor(storage: Storage) {
    this.storage = storage;
  }

  /** Serves `type` (a custom resource) with `extension`, replacing the store of the type's previous definition. */
  extend(type: ResourceType, extension: StoreExtension): void {
    this.#extensions.set(typeId(type), extension);
    this.#stores.delete(typeId(type));
  }

  /** Forgets a type defined at run time, with its extension. */
  forget(type: ResourceType): void {
    this.#extensions.delete(typeId(type));
    this.#stores.delete(typeId(type));
  }

  store(type: ResourceType): ResourceStore {
    const id = typeId(type);
    let store = this.#stores.get(id);
    if (!store) {
      store = new ResourceStore(type, {
        storage: this.storage,
        namespaceGate: (ns, t, name) => checkNamespaceOpen(this.storage, ns, t, name),
        writeGate: (attempt) => this.writeGuards.check(attempt),
        admission: () => this.admission,
        writeHooks: this.writeHooks,
        extension: this.#extensions.get(id),
      });
      this.#stores.set(id, store);
    }
    return store;
  }
}

function typeId(type: ResourceType): string {
  return `${type.group}/${type.version}/${type.resource}`;
}
