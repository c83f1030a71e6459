/**
 * The request chain, written out in kube's order (DefaultBuildHandlerChain): panic recovery → request info →
 * metrics → audit ID → logging → retry-after and wait group → request deadline → body limit → authentication → audit →
 * impersonation → max-in-flight or priority and fairness → authorization → handler → encoding in the negotiated
 * representation.
 */
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { isStatusError, newInternalError, newRequestEntityTooLarge, StatusError } from "../api/errors.ts";
import { negotiate } from "../api/negotiate.ts";
import { isPrettyPrint } from "../api/query-params.ts";
import type { KubeObject } from "../api/types.ts";
import type { IncludeObject } from "../api/table.ts";
import type { Catalog } from "../registry/catalog.ts";
import type { SchemaLookup } from "../schema/lookup.ts";
import type { Registry } from "../registry/registry.ts";
import { collectionPrefix } from "../registry/keys.ts";
import type { ConnectionHandler, ConnectionInfo } from "../runtime/listener.ts";
import { completeResponse } from "../runtime/fetch-adapter.ts";
import { sequenceOf, type Storage } from "../storage/storage.ts";
import type { WatchBroker } from "../watch/mod.ts";
import type { Authentication } from "../auth/authentication.ts";
import type { UserInfo } from "../auth/user.ts";
import { isPublicPath } from "./public-paths.ts";
import type { Authorizer } from "../auth/authorizer.ts";
import { authenticateRequest } from "./filters/authentication.ts";
import { attributesOf, authorizeRequest } from "./filters/authorization.ts";
import { impersonateRequest } from "./filters/impersonation.ts";
import { requestDeadlineMs, withinDeadline } from "./filters/request-timeout.ts";
import type { InFlightRequests } from "./filters/shutdown.ts";
import { compressedAnswer } from "./filters/compression.ts";
import type { RequestLimiter } from "./filters/flow-control.ts";
import type { FlowControl } from "../flowcontrol/mod.ts";
import {
  addAnnotations,
  AUDIT_ID_HEADER,
  auditFailedAuthentication,
  auditIdOf,
  type AuditRequest,
  finishAudit,
  logRequestObject,
  recordImpersonation,
  type RequestAudit,
  startAudit,
} from "./filters/audit.ts";
import { type Auditing, epochMicrosNow } from "../audit/mod.ts";
import type { VirtualHandlers } from "./virtual-handlers.ts";
import { type IssuerDiscovery, JWKS_PATH, OPENID_CONFIGURATION_PATH } from "./issuer-discovery.ts";
import { apiResourceList, apiVersions } from "../registry/discovery.ts";
import type { Aggregator } from "../aggregator/aggregator.ts";
import { aggregatedGroup, aggregatedGroupList } from "../aggregator/discovery.ts";
import type { HealthChecks } from "./health.ts";
import { metricLabels } from "./metric-labels.ts";
import { createOpenApiHandler } from "./openapi.ts";
import type { Descriptions } from "./openapi-descriptions.ts";
import type { ApiMetrics } from "./metrics.ts";
import { parseRequestInfo, type RequestInfo } from "./request-info.ts";
import { newResourceNotFound, routeResource } from "./resource-route.ts";
import { respondError, serialize, withHeader } from "./respond.ts";
import { httpLoggingEnabled, logHttpRequest } from "./filters/http-log.ts";
import { versionInfo } from "./version.ts";
import { noteDeprecatedRequest } from "./deprecated-apis.ts";
import { withFieldValidationIgnored } from "./handlers/write-options.ts";
import { warningHeaderValues } from "./warning-headers.ts";
import { logger } from "../log/mod.ts";

const log = logger("apiserver");

export interface AppDeps {
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

type Env = {
  Bindings: { conn: ConnectionInfo };
  Variables: {
    url: URL;
    info: RequestInfo;
    user: UserInfo;
    authenticationWarnings: string[];
    auditRequest: AuditRequest;
    audit: RequestAudit | undefined;
    /** An exception that is no API error (kube's panic), for the audit. */
    panic: unknown;
  };
};

const INCLUDE_OBJECT = new Set(["None", "Metadata", "Object"]);
const READ_ONLY_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function json(body: unknown, pretty = false): Response {
  return completeResponse(serialize(body, "json", pretty), { headers: { "Content-Type": "application/json" } });
}

/** kube's isPrettyPrint; a request that failed before its URL reached the context has it parsed here. */
function prettyFor(request: Request, url = new URL(request.url)): boolean {
  return isPrettyPrint(url.searchParams, request.headers.get("user-agent"));
}

function errorResponse(error: unknown, request: Request): Response {
  const accept = request.headers.get("accept");
  const pretty = prettyFor(request);
  if (isStatusError(error)) return respondError(error, accept, pretty);
  // A client that went away (or whose stalled body was cut) is no server failure worth a log line.
  if (!request.signal.aborted) {
    log.error("request failed", error, { stack: error instanceof Error ? error.stack : undefined });
  }
  return respondError(newInternalError(error instanceof Error ? error.message : "unexpected failure"), accept, pretty);
}

export function createApp(deps: AppDeps): ConnectionHandler {
  const app = new Hono<Env>();

  app.onError((error, c) => {
    if (!isStatusError(error)) c.set("panic", error);
    return errorResponse(error, c.req.raw);
  });
  app.notFound((c) => errorResponse(newResourceNotFound(), c.req.raw));

  app.use("*", async (c, next) => {
    // Parsed once; every later step reads it from the context.
    const url = new URL(c.req.url);
    const info = parseRequestInfo(c.req.method, url, sentPath(c.env.conn.requestTarget) ?? url.pathname);
    c.set("url", url);
    c.set("info", info);
    const started = performance.now();
    // Long-running watches are not counted in flight, as in kube's max-in-flight filter.
    const finished = info.verb === "watch"
      ? () => {}
      : deps.metrics.startRequest(READ_ONLY_METHODS.has(c.req.method) ? "readOnly" : "mutating");
    try {
      await next();
    } finally {
      finished();
    }
    deps.metrics.observe(metricLabels(info, c.req.raw, url), c.res.status, (performance.now() - started) / 1000);
  });

  // WithAuditInit and WithRequestReceivedTimestamp: every response carries the request's audit ID.
  app.use("*", async (c, next) => {
    const auditRequest = {
      request: c.req.raw,
      url: c.get("url"),
      info: c.get("info"),
      auditID: auditIdOf(c.req.raw),
      receivedAtMicros: epochMicrosNow(),
      remoteAddress: c.env.conn.remoteAddress,
    };
    c.set("auditRequest", auditRequest);
    await next();
    setAnswer(c, withHeader(c.res, AUDIT_ID_HEADER, auditRequest.auditID));
  });

  // WithLogging, inside WithAuditInit so each line names the request's audit ID.
  app.use("*", async (c, next) => {
    if (!httpLoggingEnabled()) return next();
    const started = performance.now();
    await next();
    const { request, url, info, auditID, remoteAddress } = c.get("auditRequest");
    logHttpRequest({
      verb: metricLabels(info, request, url).verb,
      uri: c.env.conn.requestTarget ?? url.pathname + url.search,
      latencyMs: performance.now() - started,
      userAgent: request.headers.get("user-agent") ?? "",
      auditID,
      srcIP: remoteAddress ?? "",
      status: c.res.status,
    });
  });

  // WithRetryAfter and WithWaitGroup: refused once shutdown stops taking requests, otherwise counted until answered.
  app.use("*", async (c, next) => {
    setAnswer(
      c,
      await deps.inFlight.serve(c.req.raw, c.get("url").pathname, c.get("info"), async () => {
        await next();
        return c.res;
      }),
    );
  });

  // WithRequestDeadline and WithTimeoutForNonLongRunningRequests sit outside authentication in kube's chain, and
  // kube reads the body inside its handlers, so the deadline covers a body that stalls too.
  app.use("*", async (c, next) => {
    const deadlineMs = requestDeadlineMs(c.get("info"), c.get("url").searchParams, deps.options.requestTimeoutMs);
    if (deadlineMs === undefined) return await next();
    setAnswer(
      c,
      await withinDeadline(deadlineMs, async () => {
        await next();
        return c.res;
      }),
    );
  });

  app.use(
    "*",
    bodyLimit({
      maxSize: deps.options.maxRequestBytes,
      onError: (c) => respondError(newRequestEntityTooLarge(deps.options.maxRequestBytes), c.req.header("accept")),
    }),
  );

  // Authentication's warnings (kube's warning.AddWarning) reach every answer, a 401 included.
  app.use("*", async (c, next) => {
    const warnings: string[] = [];
    c.set("authenticationWarnings", warnings);
    await next();
    if (warnings.length > 0) setAnswer(c, withWarnings(c.res, warnings));
  });

  app.use("*", async (c, next) => {
    const url = c.get("url");
    const request = {
      headers: c.req.raw.headers,
      url,
      peerCertificate: c.env.conn.peerCertificate,
      warnings: c.get("authenticationWarnings"),
    };
    const anonymous = deps.options.anonymous || isPublicPath(url.pathname);
    const auditing = deps.auditing;
    const authenticated = await authenticateRequest(deps.authentication.request, request, anonymous).catch(async (error: unknown) => {
      if (auditing) await auditFailedAuthentication(auditing, c.get("auditRequest"), 401, request.peerCertificate !== undefined);
      throw error;
    });
    const audit = auditing && (await startAudit(auditing, c.get("auditRequest"), authenticated));
    const authorizeAndServe = async () => {
      const user = await impersonateRequest(deps.authorizer, c.req.raw, authenticated);
      if (user instanceof Response) {
        c.res = user;
        return;
      }
      recordImpersonation(audit, authenticated, user);
      c.set("user", user);
      const authorizeAndRoute = async () => {
        await authorizeRequest(deps.authorizer, attributesOf(c.get("info"), user), (annotations) => addAnnotations(audit, annotations));
        // The URL lost its "." and ".." segments; kube routes the path as sent, so only a resource request is served.
        if (hasDotSegment(c.get("info").path)) {
          c.res = c.get("info").isResourceRequest
            ? await serveResource(c, deps)
            : respondError(newResourceNotFound(), c.req.header("accept"));
          return;
        }
        await next();
      };
      const limiter = deps.requestLimiter;
      if (!limiter) return await authorizeAndRoute();
      // WithMaxInFlightLimit or WithPriorityAndFairness sits between impersonation and authorization in kube's chain.
      const limited = await limiter(c.req.raw, c.get("info"), user, async () => {
        await authorizeAndRoute().catch((error: unknown) => {
          if (!isStatusError(error)) c.set("panic", error);
          c.res = errorResponse(error, c.req.raw);
        });
        return c.res;
      }, c.env.conn.onResponseDone);
      setAnswer(c, limited);
    };
    if (!auditing || !audit) return await authorizeAndServe().then(() => c.res);
    c.set("audit", audit);
    // The audit sees the answer to every request it recorded, refusals included, as kube's WithAudit does.
    await authorizeAndServe().catch((error: unknown) => {
      if (!isStatusError(error)) c.set("panic", error);
      c.res = errorResponse(error, c.req.raw);
    });
    setAnswer(c, await finishAudit(auditing, audit, c.get("info"), c.res, c.get("panic")));
  });

  app.use("*", async (c, next) => (await deps.health.handle(c.req.raw, c.get("url"))) ?? next());

  // kube compresses what its API handlers serialize (SerializeObject), so discovery and objects, not streams.
  if (deps.options.responseCompression) {
    const remote = () => deps.aggregator.remoteGroupVersions();
    for (const path of ["/api", "/api/*", "/apis", "/apis/*"]) {
      app.use(path, async (c, next) => {
        await next();
        setAnswer(c, await compressedAnswer(c.req.raw, c.get("info"), c.res, remote));
      });
    }
  }

  const aggregated = {
    documents: () => deps.aggregator.aggregatedOpenApi(),
    onChange: (listener: () => void) => void deps.aggregator.onOpenApiChange(listener),
  };
  const openApi = createOpenApiHandler(deps.catalog, { schemas: deps.schemas, descriptions: deps.openApiDescriptions, aggregated });
  // Without the OpenAPIV3 gate kube installs no /openapi/v3 handlers, so those paths are not found.
  const servesOpenApi = (path: string) => deps.options.openApiV3 || !(path === "/openapi/v3" || path.startsWith("/openapi/v3/"));
  app.use("/openapi/*", async (c, next) => (servesOpenApi(c.get("url").pathname) && await openApi(c.req.raw)) || next());

  const issuerDocs = deps.issuerDiscovery;
  if (issuerDocs) {
    app.get(OPENID_CONFIGURATION_PATH, (c) => issuerDocs.openidConfiguration(c.get("url")));
    app.get(JWKS_PATH, () => issuerDocs.jwks());
  }
  // Routes go-restful serves ignore a trailing slash (its tokenizePath trims them): /version/, /api/v1/, /apis/apps/ ...
  const getWithOrWithoutSlash = (path: string, handler: (c: Context<Env>) => Response) => {
    app.get(path, handler);
    app.get(`${path}/`, handler);
  };
  getWithOrWithoutSlash("/version", (c) => json(versionInfo(), prettyFor(c.req.raw, c.get("url"))));
  const flowControl = deps.flowControl;
  if (flowControl) {
    app.get("/debug/api_priority_and_fairness/:dump", (c) => {
      const text = flowControl.dump(c.req.param("dump"), c.get("url"));
      if (text === undefined) throw newResourceNotFound();
      return new Response(text, { headers: { "Content-Type": "text/plain; charset=utf-8" } });
    });
  }
  app.get("/metrics", async () => {
    const { contentType, body } = await deps.metrics.render();
    return new Response(body, { headers: { "Content-Type": contentType } });
  });
  getWithOrWithoutSlash("/api", (c) => json(apiVersions(c.get("url").host), prettyFor(c.req.raw, c.get("url"))));
  // Proxied requests were authenticated and authorized above, as kube-aggregator's handler chain does.
  app.use("/apis/*", async (c, next) => (await deps.aggregator.proxy(c.req.raw, c.get("user"))) ?? next());
  getWithOrWithoutSlash(
    "/apis",
    (c) => json(aggregatedGroupList(deps.catalog, deps.aggregator.remoteGroupVersions()), prettyFor(c.req.raw, c.get("url"))),
  );
  getWithOrWithoutSlash("/api/:version", (c) => discovery(c, apiResourceList(deps.catalog, "", c.req.param("version") ?? "")));
  getWithOrWithoutSlash(
    "/apis/:group",
    (c) => discovery(c, aggregatedGroup(deps.catalog, deps.aggregator.remoteGroupVersions(), c.req.param("group") ?? "")),
  );
  getWithOrWithoutSlash(
    "/apis/:group/:version",
    (c) => discovery(c, apiResourceList(deps.catalog, c.req.param("group") ?? "", c.req.param("version") ?? "")),
  );
  app.all("/api/*", (c) => serveResource(c, deps));
  app.all("/apis/*", (c) => serveResource(c, deps));

  return async (request, conn) => {
    try {
      return await app.fetch(request, { conn });
    } catch (error) {
      return errorResponse(error, request);
    }
  };
}

/** The path of an origin-form request-target (`/api/v1/...?query`); undefined for any other form. */
function sentPath(target: string | undefined): string | undefined {
  if (!target?.startsWith("/")) return undefined;
  const query = target.indexOf("?");
  return query < 0 ? target : target.slice(0, query);
}

/** A "." or ".." segment, also percent-encoded, which URL parsing would have resolved away. */
function hasDotSegment(path: string): boolean {
  return path.split("/").some((segment) => /^(\.|%2e){1,2}$/i.test(segment));
}

function discovery(c: Context<Env>, body: unknown): Response {
  if (body === undefined) throw newResourceNotFound();
  return json(body, prettyFor(c.req.raw, c.get("url")));
}

async function serveResource(c: Context<Env>, deps: AppDeps): Promise<Response> {
  const info = c.get("info");
  if (!info.isResourceRequest) throw newResourceNotFound();
  const type = deps.catalog.byGroupVersionResource(info.apiGroup, info.apiVersion, info.resource);
  const handler = routeResource(info, type, deps.virtualHandlers);
  const url = deps.options.serverSideFieldValidation ? c.get("url") : withFieldValidationIgnored(c.get("url"));
  const audit = c.get("audit");
  const includeObject = url.searchParams.get("includeObject") ?? "Metadata";
  if (!INCLUDE_OBJECT.has(includeObject)) throw new StatusError(400, "BadRequest", `includeObject: Unsupported value: "${includeObject}"`);
  const reads = info.verb === "get" || info.verb === "list" || info.verb === "watch";
  const store = deps.registry.store(type!);
  const definition = store.definition;
  const ctx = {
    request: c.req.raw,
    url,
    info,
    type: type!,
    store,
    storage: sequenceOf(deps.storage, collectionPrefix(type!, "")),
    broker: deps.broker,
    encode: {
      representation: negotiate(c.req.header("accept"), {
        allowTable: reads,
        allowProtobuf: definition.protobuf,
      }),
      pretty: prettyFor(c.req.raw, c.get("url")),
      includeObject: includeObject as IncludeObject,
      printer: definition.printer,
    },
    warnings: [] as string[],
    logRequestObject: audit && ((object: unknown) =>
      logRequestObject(audit, info, object, (copy) => {
        if (copy.kind === type!.kind) definition.applyDefaults(copy as KubeObject);
      })),
    auditAnnotations: new Map<string, string>(),
    user: c.get("user"),
    services: {
      authentication: deps.authentication,
      authorizer: deps.authorizer,
      minRequestTimeoutSeconds: deps.options.minRequestTimeoutSeconds,
      remainingItemCount: deps.options.remainingItemCount,
    },
  };
  noteDeprecatedRequest(type!, info, ctx, deps.metrics);
  const response = await handler(ctx).finally(() => addAnnotations(audit, ctx.auditAnnotations));
  return withWarnings(response, ctx.warnings);
}

/**
 * Hono's `c.res =` copies the Response it is given and merges the previous answer's headers into the copy, even when
 * both are one object: a filter handing back the answer it got (most do) leaves it as it is instead.
 */
function setAnswer(c: Context<Env>, response: Response): void {
  if (!c.finalized || c.res !== response) c.res = response;
}

/** Adds the Warning headers kube's recorder would write (a copy, since proxied answers have immutable headers). */
function withWarnings(response: Response, warnings: string[]): Response {
  if (warnings.length === 0) return response;
  const copy = new Response(response.body, response);
  for (const value of warningHeaderValues(warnings)) copy.headers.append("Warning", value);
  return copy;
}
