/**
 * Runs the enabled controllers with one set of shared informers (kube-controller-manager's StartControllers).
 * start() and stop() may alternate (leadership gained and lost); each start builds fresh informers and queues.
 */
import type { Authorizer } from "../../auth/authorizer.ts";
import type { Catalog } from "../../registry/catalog.ts";
import type { Registry } from "../../registry/registry.ts";
import type { Controller, ControllerContext, ControllerSettings } from "./controller.ts";
import { createIfMissing } from "../../registry/create-if-missing.ts";
import { controllerActor, userActor } from "./actor.ts";
import { controllerServiceAccountRef, KUBE_CONTROLLER_MANAGER_USER } from "./identity.ts";
import { Informer } from "./informer.ts";
import { WorkQueue } from "./work-queue.ts";
import { logger } from "../../log/mod.ts";

const managerLog = logger("controller-manager");

const ALLOW_ALL: Authorizer = { authorize: () => Promise.resolve({ decision: "Allow" }) };

export interface ManagerOptions {
  controllers: Controller[];
  settings: ControllerSettings;
  /** Whether a controller runs (from --controllers); default all. */
  enabled?: (name: string) => boolean;
  log?: (line: string) => void;
}

export class ControllerManager {
  readonly #registry: Registry;
  readonly #catalog: Catalog;
  readonly #options: ManagerOptions;
  #abort?: AbortController;
  #running?: Promise<void>;

  constructor(registry: Registry, catalog: Catalog, options: ManagerOptions) {
    this.#registry = registry;
    this.#catalog = catalog;
    this.#options = options;
  }

  get running(): boolean {
    return this.#abort !== undefined;
  }

  /** Starts every enabled controller; resolves once all have started. */
  start(): Promise<void> {
    if (this.#abort) return this.#running!;
    const abort = new AbortController();
    this.#abort = abort;
    this.#running = this.#startAll(abort.signal);
    return this.#running;
  }

  /** Stops the controllers, their queues and the informers. */
  async stop(): Promise<void> {
    const abort = this.#abort;
    if (!abort) return;
    this.#abort = undefined;
    abort.abort();
    await this.#running?.catch(() => {});
  }

  async #startAll(signal: AbortSignal): Promise<void> {
    const informers = new Map<string, Promise<Informer>>();
    signal.addEventListener("abort", () => {
      for (const informer of informers.values()) void informer.then((i) => i.stop(), () => {});
    }, { once: true });
    const log = this.#options.log ?? ((line: string) => managerLog.info(line));
    const enabled = this.#options.enabled ?? (() => true);
    for (const controller of this.#options.controllers) {
      if (!enabled(controller.name) || signal.aborted) continue;
      // Without its account the loop still runs; its writes then show what the authorizer thinks of it.
      await this.#ensureServiceAccount(controller.name).catch((error) =>
        log(`service account of controller ${controller.name}: ${error instanceof Error ? error.message : String(error)}`)
      );
      try {
        await controller.start(this.#context(controller.name, signal, informers, log));
      } catch (error) {
        log(`controller ${controller.name} failed to start: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  /**
   * kube's SAControllerClientBuilder: the manager (as system:kube-controller-manager) creates the loop's service
   * account in kube-system when it is missing, so the account its RBAC binding names exists.
   */
  async #ensureServiceAccount(controller: string): Promise<void> {
    const account = controllerServiceAccountRef(controller);
    const type = this.#catalog.byGroupVersionResource("", "v1", "serviceaccounts");
    if (!account || !type) return;
    const manager = this.#registry.as(userActor(KUBE_CONTROLLER_MANAGER_USER, this.#options.settings.authorizer ?? ALLOW_ALL));
    await createIfMissing(manager.store(type), account.namespace, {
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: account.name },
    });
  }

  #context(name: string, signal: AbortSignal, informers: Map<string, Promise<Informer>>, log: (line: string) => void): ControllerContext {
    // Every write a controller makes is authorized and admitted as its own user (kube's controllers are API clients).
    const registry = this.#registry.as(controllerActor(name, this.#options.settings.authorizer ?? ALLOW_ALL));
    const catalog = this.#catalog;
    const typeOf = (group: string, version: string, resource: string) => {
      const type = catalog.byGroupVersionResource(group, version, resource);
      if (!type) throw new Error(`unknown resource ${resource}.${version}.${group}`);
      return type;
    };
    return {
      registry,
      catalog,
      settings: this.#options.settings,
      signal,
      store: (group, version, resource) => registry.store(typeOf(group, version, resource)),
      informer(group, version, resource, options = {}) {
        const id = options.name === undefined ? `${group}/${version}/${resource}` : `${group}/${version}/${resource}?name=${options.name}`;
        let informer = informers.get(id);
        if (!informer) {
          const created = new Informer(typeOf(group, version, resource), options);
          informer = created.start(registry).then(() => {
            // Started after the stop: nothing else would stop it.
            if (signal.aborted) created.stop();
            return created;
          });
          informers.set(id, informer);
        }
        return informer;
      },
      queue(reconcile, options) {
        const queue = new WorkQueue(reconcile, {
          onError: (key, error) => log(`${name} controller: ${key}: ${error instanceof Error ? error.message : String(error)}`),
          ...options,
        });
        signal.addEventListener("abort", () => queue.stop(), { once: true });
        return queue;
      },
      every(ms, tick) {
        const timer = setInterval(tick, ms);
        signal.addEventListener("abort", () => clearInterval(timer), { once: true });
      },
      log: (message) => log(`${name} controller: ${message}`),
    };
  }
}
