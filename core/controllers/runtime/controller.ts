/**
 * The controller contract. A controller is a name (kube-controller-manager's, so --controllers can switch it)
 * and a start function. start() wires informers to work queues and returns; everything it made through the
 * context stops when ctx.signal aborts (losing leadership, shutdown). Reconcile functions read the informer
 * caches or the stores, write through the stores, and are idempotent: the manager may stop a controller at any
 * point and start it again later (or on another server), and it must converge from whatever is stored.
 */
import type { KubeObject } from "../../api/types.ts";
import type { Authorizer } from "../../auth/authorizer.ts";
import type { SigningKey } from "../../auth/service-account/keys.ts";
import type { Catalog } from "../../registry/catalog.ts";
import type { Registry } from "../../registry/registry.ts";
import type { ResourceStore } from "../../registry/store.ts";
import type { ServerConfig } from "../../config/mod.ts";
import type { Informer, InformerOptions } from "./informer.ts";
import type { Reconcile, WorkQueue, WorkQueueOptions } from "./work-queue.ts";

/** What the server hands its controllers besides the stores. */
export interface ControllerSettings {
  config: ServerConfig;
  /** The cluster CA (PEM): what kubeconfigs trust, published as kube-root-ca.crt and in cluster-info. */
  caPem: string;
  /** The URL clients reach the server at. */
  serverUrl: string;
  /** Signs legacy service account token Secrets. */
  serviceAccountSigningKey?: SigningKey;
  /** PEM files of the CA the csrsigning controller issues certificates with (--cluster-signing-*-file or the cluster CA). */
  clusterSigning?: { certFile: string; keyFile: string };
  /** The server's authorizer chain: every controller write passes it (default: allow all), and csrapproving asks it SubjectAccessReview questions. */
  authorizer?: Authorizer;
}

export interface ControllerContext {
  /** The stores as this controller's user (runtime/identity.ts): writes are authorized and admitted. */
  readonly registry: Registry;
  readonly catalog: Catalog;
  readonly settings: ControllerSettings;
  /** Aborts when the controller must stop. */
  readonly signal: AbortSignal;
  /** The store of a built-in or registered type; throws for an unknown one. */
  store(group: string, version: string, resource: string): ResourceStore;
  /** The shared, synced informer of a type (one per type and options across all controllers of a manager). */
  informer(group: string, version: string, resource: string, options?: InformerOptions): Promise<Informer>;
  /** A work queue whose workers run `reconcile`; stopped with the signal. */
  queue(reconcile: Reconcile, options?: WorkQueueOptions): WorkQueue;
  /** Calls `tick` every `ms` until the signal aborts (periodic resyncs, expiry checks). */
  every(ms: number, tick: () => void): void;
  log(message: string): void;
}

export interface Controller {
  /** kube-controller-manager's name for the loop, e.g. "namespace", "serviceaccount-token". */
  name: string;
  start(ctx: ControllerContext): Promise<void> | void;
}

/** Adds every change of `informer` to `queue` under the key `toKey` picks (none: skip). */
export function enqueueChanges(
  informer: Informer,
  queue: WorkQueue,
  toKey: (object: KubeObject) => string | string[] | undefined,
  signal: AbortSignal,
): void {
  const remove = informer.onChange((event) => {
    const keys = [toKey(event.object), event.old && toKey(event.old)].flat();
    for (const key of new Set(keys)) if (key !== undefined) queue.add(key);
  });
  signal.addEventListener("abort", remove, { once: true });
}
