/**
 * The request chain, written out in kube's order (DefaultBuildHandlerChain): the filters (chain.ts: request info,
 * metrics, audit ID, logging, retry-after and wait group, request deadline, authentication, audit, impersonation,
 * max-in-flight or priority and fairness, authorization, body limit), then health probes and hono's routes →
 * handler → encoding in the negotiated representation.
 */
import { type Context, Hono } from "hono";
import { goMarshalIndent } from "../api/go-values.ts";
import { negotiate } from "../api/negotiate.ts";
import type { KubeObject } from "../api/types.ts";
import type { ResourceType } from "../api/resource-type.ts";
import { tableIncludeObject } from "../api/table.ts";
import type { Catalog } from "../registry/catalog.ts";
import type { SchemaLookup } from "../schema/lookup.ts";
import type { Registry } from "../registry/registry.ts";
import { collectionPrefix } from "../registry/keys.ts";
import { completeResponse, headAnswer } from "../runtime/fetch-adapter.ts";
import { sequenceOf, type Storage } from "../storage/storage.ts";
import type { WatchBroker } from "../watch/mod.ts";
import type { Authentication } from "../auth/authentication.ts";
import type { Authorizer } from "../auth/authorizer.ts";
import type { InFlightRequests } from "./filters/shutdown.ts";
import { compressedAnswer } from "./filters/compression.ts";
import type { RequestLimiter } from "./filters/flow-control.ts";
import type { FlowControl } from "../flowcontrol/mod.ts";
import { addAnnotations, logRequestObject } from "./filters/audit.ts";
import type { Auditing } from "../audit/mod.ts";
import type { VirtualHandlers } from "./virtual-handlers.ts";
import { type IssuerDiscovery, JWKS_PATH, OPENID_CONFIGURATION_PATH } from "./issuer-discovery.ts";
import { apiResourceList, apiVersions } from "../registry/discovery.ts";
import type { Aggregator } from "../aggregator/aggregator.ts";
import { aggregatedGroup, aggregatedGroupList } from "../aggregator/discovery.ts";
import type { HealthChecks } from "./health.ts";
import { listedPaths } from "./index-paths.ts";
import { createOpenApiHandler } from "./openapi.ts";
import type { Descriptions } from "./openapi-descriptions.ts";
import type { ApiMetrics } from "./metrics.ts";
import { newMethodNotAllowed, newResourceNotFound, routeResource } from "./resource-route.ts";
import { respondError, serialize } from "./respond.ts";
import { versionInfo } from "./version.ts";
import { restfulRoutePath } from "./restful-trailing-slashes.ts";
import { noteDeprecatedRequest } from "./deprecated-apis.ts";
import type { HandlerContext, ServerServices } from "./handlers/context.ts";
import { withFieldValidationIgnored } from "./handlers/write-options.ts";
import type { ConnectionHandler } from "../runtime/listener.ts";
import { type ChainDeps, createChain, failed, type RequestState, type Stage } from "./chain.ts";
import { errorResponse, isPanic, prettyFor } from "./error-response.ts";

export interface AppDeps extends ChainDeps {
  storage: Storage;
  broker: WatchBroker;
  catalog: Catalog;
  registry: Registry;
  metrics: ApiMetrics;
  health: HealthChecks;
  authentication: Authentication;
  authorizer: Authorizer;
  virtualHandlers: VirtualHandlers;
  /** Routes service-backed APIServices' group/versions to their servers and lists them in discovery. */
  aggregator: Pick<Aggregator, "proxy" | "remoteGroupVersions" | "aggregatedOpenApi" | "onOpenApiChange">;
  /** Service account issuer discovery; absent when the issuer is not an https URL. */
  issuerDiscovery?: IssuerDiscovery;
  /** Schemas published in OpenAPI: the built-ins plus custom resources' (default: built-ins only). */
  schemas?: SchemaLookup;
  /** Descriptions merged into the OpenAPI documents (--openapi-descriptions). */
  openApiDescriptions?: Descriptions;
  /** Audit policy and backends; absent when no policy file or backend is configured. */
  auditing?: Auditing;
  /** Max-in-flight or priority-and-fairness admission; absent when both in-flight limits are 0 and APF is off. */
  requestLimiter?: RequestLimiter;
  /** API Priority and Fairness, for its /debug/api_priority_and_fairness dumps; absent when it is off. */
  flowControl?: Pick<FlowControl, "dump">;
  /** Requests in flight, for graceful shutdown (WithRetryAfter, WithWaitGroup). */
  inFlight: InFlightRequests;
  options: {
    maxRequestBytes: number;
    anonymous: boolean;
    /** --request-timeout and --min-request-timeout. */
    requestTimeoutMs: number;
    minRequestTimeoutSeconds: number;
    /** The APIResponseCompression, ServerSideFieldValidation, OpenAPIV3 and RemainingItemCount gates. */
    responseCompression: boolean;
    serverSideFieldValidation: boolean;
    openApiV3: boolean;
    remainingItemCount: boolean;
  };
}

/** The routes read what the chain learned about the request from hono's env. */
type Env = { Bindings: RequestState };

function json(body: unknown, pretty = false): Response {
  return completeResponse(serialize(body, "json", pretty), { headers: { "Content-Type": "application/json" } });
}

/** kube's responsewriters.WriteRawJSON, for a non-API object: indented whatever the client asked, no newline after. */
function rawJson(body: unknown): Response {
  return completeResponse(goMarshalIndent(body), { headers: { "Content-Type": "application/json" } });
}

export function createApp(deps: AppDeps): ConnectionHandler {
  const app = new Hono<Env>();
  const services: ServerServices = {
    authentication: deps.authentication,
    authorizer: deps.authorizer,
    minRequestTimeoutSeconds: deps.options.minRequestTimeoutSeconds,
    remainingItemCount: deps.options.remainingItemCount,
  };
  const routes = typeRoutes(deps.storage);
  const serve = (s: RequestState) => serveResource(s, deps, services, routes);

  app.onError((error, c) => {
    if (isPanic(error)) c.env.panic = error;
    return errorResponse(error, c.req.raw);
  });
  app.notFound((c) => errorResponse(newResourceNotFound(), c.req.raw));

  const aggregated = {
    documents: () => deps.aggregator.aggregatedOpenApi(),
    onChange: (listener: () => void) => void deps.aggregator.onOpenApiChange(listener),
  };
  const openApi = createOpenApiHandler(deps.catalog, { schemas: deps.schemas, descriptions: deps.openApiDescriptions, aggregated });
  // Without the OpenAPIV3 gate kube installs no /openapi/v3 handlers, so those paths are not found.
  const servesOpenApi = (path: string) => deps.options.openApiV3 || !(path === "/openapi/v3" || path.startsWith("/openapi/v3/"));
  app.use("/openapi/*", async (c, next) => (servesOpenApi(c.env.url.pathname) && await openApi(c.req.raw)) || next());

  // Routes go-restful serves ignore a trailing slash (its tokenizePath trims them): /version/, /api/v1/, /apis/apps/,
  // the issuer discovery documents (OpenIDMetadataServer.Install adds them to the go-restful container) ...
  // Another method on a path it serves is its 405 (CurlyRouter.detectRoute, answered by the ServiceErrorHandler).
  const getWithOrWithoutSlash = (path: string, handler: (c: Context<Env>) => Response) => {
    for (const route of [path, `${path}/`]) {
      app.get(route, handler);
      app.all(route, (c) => {
        handler(c);
        throw newMethodNotAllowed();
      });
    }
  };
  // kube-aggregator's apisHandler (/apis) and apiGroupHandler (/apis/<group>) look at no method: any is a GET.
  const anyMethodWithOrWithoutSlash = (path: string, handler: (c: Context<Env>) => Response) => {
    app.all(path, handler);
    app.all(`${path}/`, handler);
  };
  const issuerDocs = deps.issuerDiscovery;
  if (issuerDocs) {
    getWithOrWithoutSlash(OPENID_CONFIGURATION_PATH, (c) => issuerDocs.openidConfiguration(c.env.url));
    getWithOrWithoutSlash(JWKS_PATH, () => issuerDocs.jwks());
  }
  // routes.Index: IndexLister.ServeHTTP answers any method on these two paths.
  const index = () =>
    rawJson(listedPaths({
      groups: () => aggregatedGroupList(deps.catalog, deps.aggregator.remoteGroupVersions()),
      healthPaths: () => deps.health.paths(),
      issuerDiscovery: issuerDocs ? [OPENID_CONFIGURATION_PATH, JWKS_PATH] : [],
      openApiV3: deps.options.openApiV3,
    }));
  app.all("/", index);
  app.all("/index.html", index);
  // routes.Version handleVersion writes it with WriteRawJSON.
  getWithOrWithoutSlash("/version", () => rawJson(versionInfo()));
  const flowControl = deps.flowControl;
  if (flowControl) {
    app.get("/debug/api_priority_and_fairness/:dump", (c) => {
      const text = flowControl.dump(c.req.param("dump"), c.env.url);
      if (text === undefined) throw newResourceNotFound();
      return new Response(text, { headers: { "Content-Type": "text/plain; charset=utf-8" } });
    });
  }
  app.get("/metrics", async () => {
    const { contentType, body } = await deps.metrics.render();
    return new Response(body, { headers: { "Content-Type": contentType } });
  });
  getWithOrWithoutSlash("/api", (c) => json(apiVersions(c.env.url.host), prettyFor(c.req.raw, c.env.url)));
  anyMethodWithOrWithoutSlash(
    "/apis",
    (c) => json(aggregatedGroupList(deps.catalog, deps.aggregator.remoteGroupVersions()), prettyFor(c.req.raw, c.env.url)),
  );
  getWithOrWithoutSlash("/api/:version", (c) => discovery(c, apiResourceList(deps.catalog, "", c.req.param("version") ?? "")));
  anyMethodWithOrWithoutSlash(
    "/apis/:group",
    (c) => discovery(c, aggregatedGroup(deps.catalog, deps.aggregator.remoteGroupVersions(), c.req.param("group") ?? "")),
  );
  getWithOrWithoutSlash(
    "/apis/:group/:version",
    (c) => discovery(c, apiResourceList(deps.catalog, c.req.param("group") ?? "", c.req.param("version") ?? "")),
  );
  app.all("/api/*", (c) => serve(c.env));
  app.all("/apis/*", (c) => serve(c.env));

  // Proxied requests were authenticated and authorized above, as kube-aggregator's handler chain does. Outside
  // hono's routes, as the compression below: a route with no middleware before it answers without a promise when its
  // handler does.
  const proxiedOrRouted = (s: RequestState): Response | Promise<Response> => {
    const path = s.url.pathname;
    const proxied = path.startsWith("/apis/") ? deps.aggregator.proxy(s.request, s.user!, path) : undefined;
    if (proxied) return proxied;
    if (!API_PATH.test(path)) return app.fetch(restfulRequest(s), s);
    // No route before the last two takes a resource request, so it is served without hono's dispatch, whose Context
    // makes more than a dozen closures per request. A HEAD is served as its GET (hono would drop the body the
    // compression decides on); `sent` drops the body.
    if (s.info.isResourceRequest) return serve(s);
    const request = restfulRequest(s);
    return app.fetch(request.method === "HEAD" ? new Request(request, { method: "GET" }) : request, s);
  };
  const servesGroup = (group: string) => deps.catalog.group(group) !== undefined;
  const restfulRequest = (s: RequestState): Request => {
    const routedPath = restfulRoutePath(s.url.pathname, servesGroup);
    return routedPath === undefined ? s.request : new Request(new URL(routedPath + s.url.search, s.url), s.request);
  };
  const remote = () => deps.aggregator.remoteGroupVersions();
  // kube compresses what its API handlers serialize (SerializeObject), so discovery, objects and Status errors
  // (ErrorNegotiated), not streams.
  const compresses = deps.options.responseCompression;
  const sent = (s: RequestState, response: Response): Response | Promise<Response> => {
    if (compresses && API_PATH.test(s.url.pathname)) return compressedAnswer(s.request, s.info, response, remote);
    return s.request.method === "HEAD" && response.body !== null ? headAnswer(response) : response;
  };
  // A failure becomes its error answer here, as the chain's would (an exception that is no API error stays the
  // request's panic for the audit), so that it is sent as any other answer is.
  const sentAnswer = (s: RequestState, handler: Stage): Response | Promise<Response> => {
    let answered: Response | Promise<Response>;
    try {
      answered = handler(s);
    } catch (error) {
      answered = failed(s, error);
    }
    if (answered instanceof Promise) {
      return answered.then((response) => sent(s, response), (error: unknown) => sent(s, failed(s, error)));
    }
    return sent(s, answered);
  };

  // After authorization: a path with dot segments, health probes, then the routes.
  const routed = (s: RequestState): Response | Promise<Response> => {
    // The URL lost its "." and ".." segments; kube routes the path as sent, so only a resource request is served.
    if (DOT_SEGMENT.test(s.info.path)) {
      return s.info.isResourceRequest ? sentAnswer(s, serve) : respondError(newResourceNotFound(), s.request.headers.get("accept"));
    }
    const health = deps.health.handle(s.request, s.url);
    if (health === null) return sentAnswer(s, proxiedOrRouted);
    if (health instanceof Promise) return healthLater(s, health);
    return health;
  };
  // Apart, so that `routed` holds no closure over its request and makes no scope for a probe answered at once.
  const healthLater = (s: RequestState, health: Promise<Response | null>) =>
    health.then((answer) => answer ?? sentAnswer(s, proxiedOrRouted));
  return createChain(deps, routed);
}

/** /api, /apis and what lies below them: the paths whose answers are compressed. */
const API_PATH = /^\/apis?(\/|$)/;

/**
 * A "." or ".." segment, also percent-encoded, which URL parsing would have resolved away; tested on every request,
 * so one scan of the path that makes no segment strings.
 */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

function discovery(c: Context<Env>, body: unknown): Response {
  if (body === undefined) throw newResourceNotFound();
  return json(body, prettyFor(c.req.raw, c.env.url));
}

/** Answers at once, without a promise, when the handler does. */
function serveResource(s: RequestState, deps: AppDeps, services: ServerServices, routes: TypeRoutes): Response | Promise<Response> {
  const info = s.info;
  if (!info.isResourceRequest) throw newResourceNotFound();
  const type = deps.catalog.byGroupVersionResource(info.apiGroup, info.apiVersion, info.resource);
  const handler = routeResource(info, type, deps.virtualHandlers, s.request.method);
  const auditAnnotations = new Map<string, string>();
  // kube's installer wraps each handler of a deprecated version in AddWarningsHandler: the warning is recorded before
  // the handler reads its options or the store, so it reaches every answer the handler gives, a 400 or 404 too.
  noteDeprecatedRequest(type!, info, { warnings: s.warnings, auditAnnotations }, deps.metrics);
  const audit = s.audit;
  let answered: Response | Promise<Response>;
  try {
    answered = handler(handlerContext(s, type!, deps, services, routes, auditAnnotations));
  } catch (error) {
    addAnnotations(audit, auditAnnotations);
    throw error;
  }
  // Without an audit event the annotations go nowhere: no reaction waits for the answer to add them.
  if (audit === undefined) return answered;
  if (answered instanceof Promise) return answered.finally(() => addAnnotations(audit, auditAnnotations));
  addAnnotations(audit, auditAnnotations);
  return answered;
}

/** What a type is read and written through, worked out once per type. */
interface TypeRoutes {
  /** The store the type's revisions are written at (the storage's routes are fixed when it is made). */
  sequence(type: ResourceType): Storage;
}

function typeRoutes(storage: Storage): TypeRoutes {
  const sequences = new WeakMap<ResourceType, Storage>();
  return {
    sequence(type) {
      let sequence = sequences.get(type);
      if (!sequence) {
        sequence = sequenceOf(storage, collectionPrefix(type, ""));
        sequences.set(type, sequence);
      }
      return sequence;
    },
  };
}

/** The handler's view of the request; its warnings go to the request's recorder, which the chain writes. */
function handlerContext(
  s: RequestState,
  type: ResourceType,
  deps: AppDeps,
  services: ServerServices,
  routes: TypeRoutes,
  auditAnnotations: Map<string, string>,
): HandlerContext {
  const info = s.info;
  const url = deps.options.serverSideFieldValidation ? s.url : withFieldValidationIgnored(s.url);
  const audit = s.audit;
  const reads = info.verb === "get" || info.verb === "list" || info.verb === "watch";
  const store = deps.registry.store(type);
  const definition = store.definition;
  const representation = negotiate(s.request.headers.get("accept"), { allowTable: reads, allowProtobuf: definition.protobuf });
  return {
    request: s.request,
    url,
    info,
    type,
    store,
    storage: routes.sequence(type),
    broker: deps.broker,
    encode: {
      representation,
      pretty: prettyFor(s.request, s.url),
      includeObject: representation.format === "table" ? tableIncludeObject(url.searchParams) : "Metadata",
      printer: definition.printer,
    },
    warnings: s.warnings,
    logRequestObject: audit && ((object: unknown) =>
      logRequestObject(audit, info, object, (copy) => {
        if (copy.kind === type.kind) definition.applyDefaults(copy as KubeObject);
      })),
    auditAnnotations,
    user: s.user!,
    services,
  };
}
