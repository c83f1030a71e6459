/**
 * pods/proxy, services/proxy and nodes/proxy (kube's ProxyREST.Connect): the request's method, headers, body and
 * query go to the location the resource's ResourceLocation picks, at the path after ".../proxy", through kube's
 * proxy transport (http, or https without verification presenting the proxy client certificate); the answer
 * streams back. A failed round trip is kube's 500 "error trying to reach service: ...". Node agents are never
 * dialled (kubun runs none).
 */
import { joinHostPort, type ProxyClientCertificate } from "../../aggregator/backend-request.ts";
import { forwardedHeaders, forwardRequest } from "../../aggregator/proxy.ts";
import type { ReadOnlyClient } from "../../api/client.ts";
import { respondError } from "../respond.ts";
import { newResourceNotFound } from "../resource-route.ts";
import { virtualHandlerKey } from "../virtual-handlers.ts";
import type { Handler, HandlerContext } from "./context.ts";
import { newNodeAgentReachError, newReachServiceError } from "./node-agent.ts";
import { nodeLocation, podLocation, type ProxyLocation, serviceLocation } from "./proxy-location.ts";
import { adjustProxiedResponse, forwardedUri } from "./proxy-rewrite.ts";

/** A path segment as request info decodes it (a malformed escape stays as sent). */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The request path split at ".../<name>/proxy": the prefix (kube's PathPrepend) and the path after it, kept as
 * sent (encoded, trailing slash preserved), "/" when there is none.
 */
export function splitProxyPath(pathname: string, resource: string, name: string): { prepend: string; path: string } {
  const segments = pathname.split("/");
  for (let i = 2; i < segments.length; i++) {
    if (segments[i] === "proxy" && decodedSegment(segments[i - 1]!) === name && segments[i - 2] === resource) {
      return { prepend: segments.slice(0, i + 1).join("/"), path: `/${segments.slice(i + 1).join("/")}` };
    }
  }
  return { prepend: pathname, path: "/" };
}

/** How Go's dialer words the common connection failures ("dial tcp 127.0.0.1:1: connect: connection refused"). */
export function dialFailure(error: Error, address: string): string {
  const cause = (error.cause ?? error) as NodeJS.ErrnoException;
  const words: Record<string, string> = {
    ECONNREFUSED: "connect: connection refused",
    ECONNRESET: "connection reset by peer",
    ETIMEDOUT: "i/o timeout",
    EHOSTUNREACH: "connect: no route to host",
  };
  const word = cause.code ? words[cause.code] : undefined;
  return word ? `dial tcp ${address}: ${word}` : cause.message;
}

function forwardTo(ctx: HandlerContext, location: ProxyLocation, client: ProxyClientCertificate): Promise<Response> {
  const { host, port } = location.endpoint;
  const address = joinHostPort(host, port);
  const tls = location.scheme === "https" ? { client, verify: false } : undefined;
  const { prepend: pathPrepend, path } = splitProxyPath(ctx.url.pathname, ctx.info.resource, ctx.info.name);
  const headers = forwardedHeaders(ctx.request);
  headers.set("X-Forwarded-Uri", forwardedUri(pathPrepend, path));
  return forwardRequest(ctx.request, { scheme: location.scheme, endpoint: location.endpoint, tls }, {
    path: `${path}${ctx.url.search}`,
    headers,
    onError: (error) => respondError(newReachServiceError(dialFailure(error, address)), ctx.request.headers.get("accept")),
    adjustResponseHeaders: (answer) => adjustProxiedResponse(answer, pathPrepend, address),
  });
}

export function proxyHandlers(client: ReadOnlyClient, proxyClient: ProxyClientCertificate): [string, Handler][] {
  const namespaced = (locate: (namespace: string, id: string) => Promise<ProxyLocation>): Handler => async (ctx) => {
    if (ctx.info.namespace === "") throw newResourceNotFound();
    return forwardTo(ctx, await locate(ctx.info.namespace, ctx.info.name), proxyClient);
  };
  return [
    [virtualHandlerKey("", "pods", "proxy"), namespaced((namespace, id) => podLocation(client, namespace, id))],
    [virtualHandlerKey("", "services", "proxy"), namespaced((namespace, id) => serviceLocation(client, namespace, id))],
    [virtualHandlerKey("", "nodes", "proxy"), async (ctx) => {
      throw newNodeAgentReachError(await nodeLocation(client, ctx.info.name));
    }],
  ];
}
