/** The read-only client contract plugins and in-process readers get: get, list and follow any served type. */
import type { KubeObject } from "./types.ts";

export interface ObjectReference {
  group: string;
  version: string;
  resource: string;
  namespace?: string;
  name: string;
}

export interface CollectionEvent {
  type: "ADDED" | "MODIFIED" | "DELETED";
  object: KubeObject;
  /** The storage key the object was read at; absent on a relist's DELETED of an object the follower held. */
  key?: string;
}

export interface CollectionFollow {
  stop(): void;
}

export interface ReadOnlyClient {
  /** The object, or null when it does not exist. */
  get(ref: ObjectReference): Promise<KubeObject | null>;
  /** Every object of the type, in one namespace or all. */
  list(ref: Omit<ObjectReference, "name">): Promise<KubeObject[]>;
  /**
   * Every object of the type (all namespaces) as ADDED, then each change, synchronously after its commit.
   * Resolves once the current objects have been handed over.
   */
  watch(ref: Omit<ObjectReference, "name" | "namespace">, onEvent: (event: CollectionEvent) => void): Promise<CollectionFollow>;
}
