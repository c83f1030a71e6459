/**
 * The aggregation layer (kube-aggregator inside kube-apiserver): keeps the local APIServices in step with the
 * catalog, their priorities in discovery, the Available condition of every APIService, and routes requests for a
 * service-backed group/version to its server.
 */
import { deepEqual } from "../api/equality.ts";
import type { KubeObject } from "../api/types.ts";
import type { UserInfo } from "../auth/user.ts";
import { Informer, type InformerEvent, WorkQueue } from "../controllers/runtime/mod.ts";
import type { Catalog } from "../registry/catalog.ts";
import type { GroupVersionEntry } from "../registry/group-priority.ts";
import { nowTimestamp } from "../registry/object-meta.ts";
import type { Registry } from "../registry/registry.ts";
import type { ResourceStore } from "../registry/store.ts";
import { checkAvailability, type DiscoveryProbe, withCondition } from "./availability.ts";
import type { ProxyClientCertificate } from "./backend-request.ts";
import { discoveryProbe } from "./discovery-probe.ts";
import { resolveEndpoint, type ServiceLookup } from "./endpoint-resolver.ts";
import { desiredLocalAPIServices, needsRestore, removeLocalAPIService, syncLocalAPIService } from "./local-apiservices.ts";
import { type AggregatedOpenApi, downloadOpenApi } from "./openapi-download.ts";
import { plainError, proxyRequest } from "./proxy.ts";
import { apiServiceSpec, conditionsOf, isAvailable } from "./service-reference.ts";
import { logger } from "../log/mod.ts";

const log = logger("aggregator");

export interface AggregatorOptions {
  /** The client certificate presented to aggregated servers (--proxy-client-cert-file). */
  proxyClient: ProxyClientCertificate;
  /** How often service-backed APIServices are probed again; default 5 s. */
  resyncMs?: number;
  /** Replaces the https discovery check (tests). */
  probe?: DiscoveryProbe;
}

const DEFAULT_RESYNC_MS = 5000;
const OPENAPI_REFRESH_MS = 60_000;

export class Aggregator {
  readonly #catalog: Catalog;
  /** APIService status writes, admitted as the server's loopback user. */
  readonly #store: ResourceStore;
  /** The local APIServices' reconciliation: bootstrap writes (Registry.bootstrapWriter()). */
  readonly #localAPIServices: ResourceStore;
  readonly #registry: Registry;
  readonly #apiServices: Informer;
  readonly #services: Informer;
  readonly #endpoints: Informer;
  readonly #queue: WorkQueue;
  readonly #options: AggregatorOptions;
  readonly #probe: DiscoveryProbe;
  readonly #lookup: ServiceLookup;
  readonly #stops: (() => void)[] = [];
  /** APIService name → the OpenAPI documents of its server while it is available, the spec they came from and when. */
  readonly #openApi = new Map<string, { spec: string; fetchedAt: number; documents: AggregatedOpenApi }>();
  readonly #openApiListeners = new Set<() => void>();

  private constructor(registry: Registry, catalog: Catalog, options: AggregatorOptions) {
    const type = (group: string, resource: string) => catalog.byGroupVersionResource(group, "v1", resource)!;
    this.#catalog = catalog;
    this.#registry = registry;
    this.#store = registry.store(type("apiregistration.k8s.io", "apiservices"));
    this.#localAPIServices = registry.bootstrapWriter().store(type("apiregistration.k8s.io", "apiservices"));
    this.#apiServices = new Informer(type("apiregistration.k8s.io", "apiservices"));
    this.#services = new Informer(type("", "services"));
    this.#endpoints = new Informer(type("", "endpoints"));
    this.#options = options;
    this.#probe = options.probe ?? discoveryProbe(options.proxyClient);
    this.#lookup = { service: (ns, name) => this.#services.get(ns, name), endpoints: (ns, name) => this.#endpoints.get(ns, name) };
    this.#queue = new WorkQueue((name) => this.#updateAvailability(name), { maxDelayMs: options.resyncMs ?? DEFAULT_RESYNC_MS });
  }

  /** Starts following APIServices, Services and Endpoints; resolves once the local APIServices are written. */
  static async start(registry: Registry, catalog: Catalog, options: AggregatorOptions): Promise<Aggregator> {
    const aggregator = new Aggregator(registry, catalog, options);
    await aggregator.#start();
    return aggregator;
  }

  async #start(): Promise<void> {
    await Promise.all([this.#apiServices, this.#services, this.#endpoints].map((informer) => informer.start(this.#registry)));
    this.#stops.push(this.#apiServices.onChange((event) => this.#onAPIService(event)));
    for (const informer of [this.#services, this.#endpoints]) {
      this.#stops.push(informer.onChange((event) => this.#enqueueBackedBy(event.object)));
    }
    for (const desired of desiredLocalAPIServices(this.#catalog).values()) await syncLocalAPIService(this.#localAPIServices, desired);
    this.#stops.push(this.#catalog.onChange(() => void this.#followCatalog().catch(logFailure)));
    const timer = setInterval(() => this.#enqueueServiceBacked(), this.#options.resyncMs ?? DEFAULT_RESYNC_MS);
    this.#stops.push(() => clearInterval(timer));
  }

  stop(): void {
    for (const stop of this.#stops.splice(0)) stop();
    this.#queue.stop();
    for (const informer of [this.#apiServices, this.#services, this.#endpoints]) informer.stop();
  }

  /** The OpenAPI documents of the available aggregated servers, merged into /openapi/v2 and /openapi/v3. */
  aggregatedOpenApi(): AggregatedOpenApi[] {
    return [...this.#openApi.values()].map((entry) => entry.documents);
  }

  /** Calls `listener` whenever aggregatedOpenApi() changes. */
  onOpenApiChange(listener: () => void): () => void {
    this.#openApiListeners.add(listener);
    return () => this.#openApiListeners.delete(listener);
  }

  /** Service-backed group/versions with their priorities, for discovery. */
  remoteGroupVersions(): GroupVersionEntry[] {
    return this.#apiServices.list().flatMap((obj) => {
      const spec = apiServiceSpec(obj);
      if (!spec.service || spec.group === "") return [];
      return [{ group: spec.group, version: spec.version, priority: { group: spec.groupPriorityMinimum, version: spec.versionPriority } }];
    });
  }

  /**
   * Answers a request under /apis/<group>/<version> that a service-backed APIService claims: proxied when it is
   * available, 503 otherwise; undefined when this server serves the path itself. `path` is the request's URL path,
   * when the caller has it parsed already.
   */
  proxy(request: Request, user: UserInfo, path = new URL(request.url).pathname): Response | Promise<Response> | undefined {
    const [, root, group, version] = path.split("/");
    if (root !== "apis" || !group || !version) return undefined;
    const apiService = this.#apiServices.get("", `${version}.${group}`);
    const spec = apiService && apiServiceSpec(apiService);
    if (!spec?.service) return undefined;
    if (!isAvailable(apiService!)) return plainError("service unavailable", 503);
    let endpoint;
    try {
      endpoint = resolveEndpoint(this.#lookup, spec.service);
    } catch {
      return plainError("service unavailable", 503);
    }
    return proxyRequest(request, { endpoint, spec, client: this.#options.proxyClient }, user);
  }

  #onAPIService(event: InformerEvent): void {
    const name = String(event.object.metadata.name);
    const spec = apiServiceSpec(event.object);
    if (event.type !== "DELETED" && !spec.service) {
      this.#catalog.setPriority(spec.group, spec.version, { group: spec.groupPriorityMinimum, version: spec.versionPriority });
    }
    if (event.type !== "DELETED") this.#queue.add(name);
    else this.#forgetOpenApi(name);
    const desired = desiredLocalAPIServices(this.#catalog).get(name);
    if (needsRestore(event.type === "DELETED" ? undefined : event.object, desired)) {
      void syncLocalAPIService(this.#localAPIServices, desired!).catch(logFailure);
    }
  }

  /** Custom resource group/versions gain and lose their APIService with the catalog (kube's crdregistration). */
  async #followCatalog(): Promise<void> {
    const desired = desiredLocalAPIServices(this.#catalog);
    for (const apiService of desired.values()) {
      if (needsRestore(this.#apiServices.get("", String(apiService.metadata.name)), apiService)) {
        await syncLocalAPIService(this.#localAPIServices, apiService);
      }
    }
    for (const live of this.#apiServices.list()) {
      const name = String(live.metadata.name);
      if (live.metadata.labels?.["kube-aggregator.kubernetes.io/automanaged"] === "true" && !desired.has(name)) {
        await removeLocalAPIService(this.#localAPIServices, name);
      }
    }
  }

  #enqueueBackedBy(object: KubeObject): void {
    for (const apiService of this.#apiServices.list()) {
      const ref = apiServiceSpec(apiService).service;
      if (ref && ref.namespace === object.metadata.namespace && ref.name === object.metadata.name) {
        this.#queue.add(String(apiService.metadata.name));
      }
    }
  }

  #enqueueServiceBacked(): void {
    for (const apiService of this.#apiServices.list()) {
      if (apiServiceSpec(apiService).service) this.#queue.add(String(apiService.metadata.name));
    }
  }

  /** Downloads an available server's documents, again when its spec changes or a minute has passed (kube's successfulUpdateDelay). */
  async #followOpenApi(name: string, live: KubeObject, available: boolean): Promise<void> {
    const spec = apiServiceSpec(live);
    if (!available || !spec.service) return this.#forgetOpenApi(name);
    const signature = JSON.stringify(spec);
    const known = this.#openApi.get(name);
    if (known?.spec === signature && Date.now() - known.fetchedAt < OPENAPI_REFRESH_MS) return;
    const documents = await downloadOpenApi(resolveEndpoint(this.#lookup, spec.service), spec, this.#options.proxyClient);
    this.#openApi.set(name, { spec: signature, fetchedAt: Date.now(), documents });
    // Unchanged documents keep the served ones (and their hashes) as they are.
    const content = (entry?: AggregatedOpenApi) => entry && JSON.stringify([entry.v2, [...entry.v3]]);
    if (content(known?.documents) === content(documents)) return;
    for (const listener of this.#openApiListeners) listener();
  }

  #forgetOpenApi(name: string): void {
    if (!this.#openApi.delete(name)) return;
    for (const listener of this.#openApiListeners) listener();
  }

  async #updateAvailability(name: string): Promise<void> {
    const live = this.#apiServices.get("", name);
    if (!live) return;
    const condition = await checkAvailability(live, this.#lookup, this.#probe);
    const now = nowTimestamp();
    const current = conditionsOf(live);
    const conditions = withCondition(current, condition, now);
    if (!deepEqual(conditions, current)) {
      // kube's updateAPIServiceStatus: an UpdateStatus of the cached object, whose resourceVersion is a precondition.
      // An APIService changed meanwhile fails the pass (409), and the queue runs it again, rate-limited, on the
      // newer object (AvailableConditionController.processNextWorkItem: AddRateLimited).
      const next = { ...live, status: { ...(live.status as object), conditions } };
      await this.#store.update("", name, () => next, { subresource: "status" });
    }
    await this.#followOpenApi(name, live, condition.status === "True").catch(logFailure);
  }
}

function logFailure(error: unknown): void {
  log.error("aggregator failed", error);
}
