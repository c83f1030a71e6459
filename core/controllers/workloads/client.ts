/**
 * What the in-process controllers read and write through: the registry's stores, addressed by resource, with
 * NotFound on delete and AlreadyExists on create treated as already done (controllers are level-triggered).
 */
import { isAlreadyExists, isNotFound } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import type { Catalog } from "../../registry/catalog.ts";
import { listObjects } from "../../registry/list.ts";
import type { Registry } from "../../registry/registry.ts";
import type { DeleteOptions } from "../../registry/store-options.ts";
import type { ResourceStore } from "../../registry/store.ts";
import { type EventNote, EventRecorder } from "../runtime/mod.ts";

export interface ResourceRef {
  group: string;
  version: string;
  resource: string;
}

export const PODS: ResourceRef = { group: "", version: "v1", resource: "pods" };
export const NODES: ResourceRef = { group: "", version: "v1", resource: "nodes" };
export const REPLICATION_CONTROLLERS: ResourceRef = { group: "", version: "v1", resource: "replicationcontrollers" };
export const PERSISTENT_VOLUME_CLAIMS: ResourceRef = { group: "", version: "v1", resource: "persistentvolumeclaims" };
export const REPLICA_SETS: ResourceRef = { group: "apps", version: "v1", resource: "replicasets" };
export const DEPLOYMENTS: ResourceRef = { group: "apps", version: "v1", resource: "deployments" };
export const STATEFUL_SETS: ResourceRef = { group: "apps", version: "v1", resource: "statefulsets" };
export const DAEMON_SETS: ResourceRef = { group: "apps", version: "v1", resource: "daemonsets" };
export const CONTROLLER_REVISIONS: ResourceRef = { group: "apps", version: "v1", resource: "controllerrevisions" };
export const JOBS: ResourceRef = { group: "batch", version: "v1", resource: "jobs" };
export const CRON_JOBS: ResourceRef = { group: "batch", version: "v1", resource: "cronjobs" };
export const EVENTS: ResourceRef = { group: "", version: "v1", resource: "events" };
export const LEASES: ResourceRef = { group: "coordination.k8s.io", version: "v1", resource: "leases" };

export interface ControllerClient {
  store(ref: ResourceRef): ResourceStore;
  list(ref: ResourceRef, namespace?: string): Promise<KubeObject[]>;
  get(ref: ResourceRef, namespace: string, name: string): Promise<KubeObject | null>;
  /** Creates the object; null when one of that name already exists. */
  create(ref: ResourceRef, obj: KubeObject): Promise<KubeObject | null>;
  /** Replaces the object; its resourceVersion, if set, is a precondition (409 when it moved on). */
  update(ref: ResourceRef, obj: KubeObject): Promise<KubeObject>;
  /** As update, for a change kube's controller sends as a patch (and is authorized for as one). */
  patch(ref: ResourceRef, obj: KubeObject): Promise<KubeObject>;
  updateStatus(ref: ResourceRef, obj: KubeObject): Promise<KubeObject>;
  /** Deletes (or starts deleting) the object; a missing one is fine. */
  delete(ref: ResourceRef, obj: KubeObject, options?: DeleteOptions): Promise<void>;
  /** Records an Event about `involved` (EventRecorder.Eventf): written later, as this client's user; never fails. */
  recordEvent(involved: KubeObject, note: EventNote): void;
}

export function controllerClient(
  registry: Registry,
  catalog: Catalog,
  options: { fieldManager: string; signal?: AbortSignal },
): ControllerClient {
  const store = (ref: ResourceRef) => {
    const type = catalog.byGroupVersionResource(ref.group, ref.version, ref.resource);
    if (!type) throw new Error(`unknown resource ${ref.resource} in ${ref.group || "core"}/${ref.version}`);
    return registry.store(type);
  };
  const write = { fieldManager: options.fieldManager };
  const namespaceOf = (obj: KubeObject) => obj.metadata.namespace ?? "";
  const replace = async (ref: ResourceRef, obj: KubeObject, subresource: string, patch = false) => {
    const { object } = await store(ref).update(namespaceOf(obj), String(obj.metadata.name), () => structuredClone(obj), {
      ...write,
      subresource,
      patch,
    });
    return object;
  };
  let recorder: EventRecorder | undefined;
  return {
    store,
    async list(ref, namespace = "") {
      return (await listObjects(store(ref), { namespace, revision: 0, limit: 0 })).list.items;
    },
    async get(ref, namespace, name) {
      try {
        return await store(ref).get(namespace, name);
      } catch (e) {
        if (isNotFound(e)) return null;
        throw e;
      }
    },
    async create(ref, obj) {
      try {
        return await store(ref).create(namespaceOf(obj), obj, write);
      } catch (e) {
        if (isAlreadyExists(e)) return null;
        throw e;
      }
    },
    update: (ref, obj) => replace(ref, obj, ""),
    patch: (ref, obj) => replace(ref, obj, "", true),
    updateStatus: (ref, obj) => replace(ref, obj, "status"),
    async delete(ref, obj, deleteOptions = {}) {
      try {
        await store(ref).delete(namespaceOf(obj), String(obj.metadata.name), deleteOptions);
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    },
    recordEvent(involved, note) {
      recorder ??= new EventRecorder({ events: store(EVENTS), write, signal: options.signal });
      recorder.record(involved, note);
    },
  };
}
