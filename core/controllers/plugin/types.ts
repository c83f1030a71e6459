/**
 * The controller plugin contract (--controller-plugin): a module default-exports a factory returning a name,
 * the resource types it watches and a reconcile function. The server runs it on the controller runtime as a
 * loop of its own, writing as the service account system:serviceaccount:kube-system:<name>.
 */
import type { KubeObject } from "../../api/types.ts";
import type { ObjectReference } from "../../api/client.ts";
import type { PluginLogger } from "../../auth/plugin-context.ts";
import type { ServerConfig } from "../../config/mod.ts";

export interface ResourceRef {
  group: string;
  version: string;
  resource: string;
}

/** What changed: one object of a watched type, as the informer cache has it now (null once deleted). */
export interface ReconcileRequest extends ResourceRef {
  namespace: string;
  name: string;
  object: KubeObject | null;
}

/**
 * The plugin's API client. Every call is authorized as its service account, and writes pass admission, as any
 * client's requests do.
 */
export interface ControllerClient {
  /** The object, or null when it does not exist. */
  get(ref: ObjectReference): Promise<KubeObject | null>;
  list(ref: Omit<ObjectReference, "name">): Promise<KubeObject[]>;
  create(ref: Omit<ObjectReference, "name">, object: KubeObject): Promise<KubeObject>;
  /** Read-modify-write: `change` gets the current object (a copy) and returns the new one; conflicts are retried. */
  update(ref: ObjectReference, change: (current: KubeObject) => KubeObject): Promise<KubeObject>;
  delete(ref: ObjectReference): Promise<void>;
}

export interface ControllerPluginContext {
  client: ControllerClient;
  log: PluginLogger;
  config: Readonly<ServerConfig>;
  /** Aborts when the loop stops (shutdown, lost leadership). */
  signal: AbortSignal;
}

export interface ControllerPlugin {
  /** The loop's name and its service account's name (a DNS-1123 subdomain). */
  name: string;
  watches: readonly ResourceRef[];
  /** Brings the world in line with the object; throwing retries it with backoff. */
  reconcile(request: ReconcileRequest, context: ControllerPluginContext): Promise<void> | void;
}

export type ControllerPluginFactory = (
  context: { config: Readonly<ServerConfig>; log: PluginLogger },
) => ControllerPlugin | Promise<ControllerPlugin>;

/** Identity function that gives a controller plugin module's default export its type. */
export function defineControllerPlugin(plugin: ControllerPlugin): ControllerPluginFactory {
  return () => plugin;
}
