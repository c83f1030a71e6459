/**
 * All resource stores over one Storage, created on first use, plus the namespace checks they share. `as(actor)`
 * gives the same stores acting as an in-process API client (actor.ts). Every write is admitted: a request's as its
 * user, an actor's as the actor, the root registry's own as the server's loopback user; only writes through
 * `bootstrapWriter()` (the server's start-up objects) skip admission.
 */
import type { EventType, KeyValue, Storage } from "../storage/storage.ts";
import { WatchBroker } from "../watch/mod.ts";
import { type CollectionEvent, type CollectionFollow } from "../api/client.ts";
import { followCollection } from "./collection-follow.ts";
import type { ResourceType } from "../api/resource-type.ts";
import type { KubeObject } from "../api/types.ts";
import type { StoreExtension } from "./store-extension.ts";
import { ResourceStore } from "./store.ts";
import { builtInDefinition, customDefinition, type KindDefinition } from "./definition.ts";
import { WriteGuards } from "./write-guard.ts";
import { WriteHooks } from "./write-hook.ts";
import { NamespaceGate } from "./namespace-gate.ts";
import type { AdmissionHook } from "./admission-hook.ts";
import type { StoreActor } from "./actor.ts";

/** What a registry and its acting views share. */
interface Shared {
  readonly broker: WatchBroker;
  readonly namespaces: NamespaceGate;
  admission: AdmissionHook | undefined;
  readonly extensions: Map<string, StoreExtension>;
  readonly views: Map<string, Registry>;
  readonly root: Registry;
}

export class Registry {
  /** Private: every write goes through a store, every follower through the broker (the store is the only write path). */
  readonly #storage: Storage;
  /** Checks every store runs on users' creates and updates. */
  readonly writeGuards = new WriteGuards();
  /** Steps every store runs on all creates and updates, the server's own included (write-hook.ts). */
  readonly writeHooks = new WriteHooks();
  readonly #stores = new Map<string, ResourceStore>();
  readonly #shared: Shared;
  readonly #actor?: StoreActor;
  readonly #bootstrap: boolean;

  /** `broker` is the server's watch broker over `storage`; without one the registry makes its own. */
  constructor(
    storage: Storage,
    broker?: WatchBroker,
    view?: { shared: Shared; actor?: StoreActor; bootstrap?: true; writeGuards: WriteGuards; writeHooks: WriteHooks },
  ) {
    this.#storage = storage;
    if (view) this.#shared = view.shared;
    else {
      const changes = broker ?? new WatchBroker(storage);
      const follow = (prefix: string, onEvent: (event: CollectionEvent) => void) => followCollection(storage, changes, prefix, onEvent);
      const namespaces = new NamespaceGate(storage, follow);
      this.#shared = { broker: changes, namespaces, admission: undefined, extensions: new Map(), views: new Map(), root: this };
    }
    this.#actor = view?.actor;
    this.#bootstrap = view?.bootstrap === true;
    if (view) {
      this.writeGuards = view.writeGuards;
      this.writeHooks = view.writeHooks;
    }
  }

  /** The watch broker over the registry's storage: in-process followers (informers, control loops) hang on it. */
  get broker(): WatchBroker {
    return this.#shared.broker;
  }

  /**
   * Follows one collection (every object under `prefix` as ADDED, then each change at its commit), on the broker;
   * with `keep`, only the stored objects and changes it accepts (by key, stored text and change type). `held` answers the objects the follower holds, for
   * the deletions a relist after lost watch history reports (collection-follow.ts); `decode` makes the objects from
   * the stored values (decodeStored by default).
   */
  follow(
    prefix: string,
    onEvent: (event: CollectionEvent) => void,
    keep?: (kv: KeyValue, type: EventType) => boolean,
    held?: () => Iterable<KubeObject>,
    decode?: (kv: KeyValue) => KubeObject,
  ): Promise<CollectionFollow> {
    return followCollection(this.#storage, this.#shared.broker, prefix, onEvent, keep, held, decode);
  }

  /**
   * Rejects with kube's 404 or 403 unless `namespace` exists and is not terminating (the NamespaceLifecycle check); at
   * once, without a promise, for a namespace the followed copy shows open.
   */
  checkNamespaceOpen(namespace: string, type: ResourceType, name: string): void | Promise<void> {
    return this.#shared.namespaces.check(namespace, type, name);
  }

  /** The admission chain users' (and actors') writes go through; set once at start (core/admission). */
  get admission(): AdmissionHook | undefined {
    return this.#shared.admission;
  }

  set admission(hook: AdmissionHook | undefined) {
    this.#shared.admission = hook;
  }

  /** The same stores, every write made as `actor` (one view per actor name). */
  as(actor: StoreActor): Registry {
    const key = actor.user.username;
    let view = this.#shared.views.get(key);
    if (!view) {
      view = new Registry(this.#storage, undefined, {
        shared: this.#shared,
        actor,
        writeGuards: this.writeGuards,
        writeHooks: this.writeHooks,
      });
      this.#shared.views.set(key, view);
    }
    return view;
  }

  /**
   * The same stores, every write the server's own bootstrap write, which skips admission and write guards: system
   * namespaces, bootstrap RBAC, local APIServices, the extension-apiserver-authentication ConfigMap, the kubernetes
   * Service. Only the root registry has one: an actor (a controller) never skips admission.
   */
  bootstrapWriter(): Registry {
    if (this.#actor) throw new Error(`${this.#actor.user.username} cannot write as the server's bootstrap: its writes are admitted`);
    if (this.#bootstrap) return this;
    let view = this.#shared.views.get(BOOTSTRAP_VIEW);
    if (!view) {
      view = new Registry(this.#storage, undefined, {
        shared: this.#shared,
        bootstrap: true,
        writeGuards: this.writeGuards,
        writeHooks: this.writeHooks,
      });
      this.#shared.views.set(BOOTSTRAP_VIEW, view);
    }
    return view;
  }

  /** Serves `type` (a custom resource) with `extension`, replacing the store of the type's previous definition. */
  extend(type: ResourceType, extension: StoreExtension): void {
    this.#shared.extensions.set(typeId(type), extension);
    this.#forgetStores(type);
  }

  /** Forgets a type defined at run time, with its extension. */
  forget(type: ResourceType): void {
    this.#shared.extensions.delete(typeId(type));
    this.#forgetStores(type);
  }

  #forgetStores(type: ResourceType): void {
    this.#stores.delete(typeId(type));
    for (const registry of [this.#shared.root, ...this.#shared.views.values()]) registry.#stores.delete(typeId(type));
  }

  /** The kind's definition: a custom resource's from its CRD (extend), else the built-in one. */
  definition(type: ResourceType): KindDefinition {
    const extension = this.#shared.extensions.get(typeId(type));
    return extension ? customDefinition(type, extension) : builtInDefinition(type);
  }

  store(type: ResourceType): ResourceStore {
    const id = typeId(type);
    let store = this.#stores.get(id);
    if (!store) {
      store = new ResourceStore(this.definition(type), {
        storage: this.#storage,
        changes: this.#shared.broker,
        namespaceGate: (ns, t, name) => this.#shared.namespaces.check(ns, t, name),
        writeGate: (attempt) => this.writeGuards.check(attempt),
        admission: () => this.admission,
        writeHooks: this.writeHooks,
        actor: this.#actor,
        bootstrap: this.#bootstrap,
      });
      this.#stores.set(id, store);
    }
    return store;
  }
}

/** The key of the bootstrap view among the actor views (no user name has a space). */
const BOOTSTRAP_VIEW = "bootstrap writes";

function typeId(type: ResourceType): string {
  return `${type.group}/${type.version}/${type.resource}`;
}
