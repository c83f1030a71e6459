/**
 * Forwards a request for an aggregated group/version to its server (kube-aggregator's proxyHandler): same method,
 * path, query and body, the caller's credentials replaced by the authenticated user in request headers over the
 * proxy client certificate, and the answer streamed back as it arrives (watches included). forwardRequest is also
 * the API server's own service, pod and node proxy.
 */
import type { IncomingMessage } from "node:http";
import type { UserInfo } from "../auth/user.ts";
import { setAuthProxyHeaders } from "./auth-proxy-headers.ts";
import { apiServiceTls, type BackendTarget, type ProxyClientCertificate, sendRequest } from "./backend-request.ts";
import type { Endpoint } from "./endpoint-resolver.ts";
import type { APIServiceSpec } from "./service-reference.ts";

// Connection-level headers, and credentials the aggregator already consumed (its authentication and impersonation).
const DROPPED_REQUEST_HEADERS = [
  "authorization",
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length",
];
const DROPPED_RESPONSE_HEADERS = new Set(["connection", "keep-alive", "transfer-encoding", "trailer", "upgrade", "content-length"]);

/** Plain-text error answers, as Go's http.Error writes them (what kube's proxy answers with). */
export function plainError(message: string, status: number): Response {
  return new Response(`${message}\n`, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" },
  });
}

/** The caller's headers without connection-level ones and the credentials this server already consumed. */
export function forwardedHeaders(request: Request): Headers {
  const headers = new Headers(request.headers);
  for (const name of DROPPED_REQUEST_HEADERS) headers.delete(name);
  const impersonation: string[] = [];
  headers.forEach((_value, name) => name.startsWith("impersonate-") && impersonation.push(name));
  for (const name of impersonation) headers.delete(name);
  return headers;
}

function streamed(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      incoming.on("data", (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
      incoming.on("end", () => controller.close());
      incoming.on("error", (error) => controller.error(error));
    },
    cancel() {
      incoming.destroy();
    },
  });
}

function responseHeaders(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined || DROPPED_RESPONSE_HEADERS.has(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

/**
 * Sends the request on to `target` at `path` (path and query) and streams the answer back; a failed round trip
 * becomes `onError(error)`.
 */
export async function forwardRequest(
  request: Request,
  target: BackendTarget,
  outgoing: { path: string; headers: Headers; onError: (error: Error) => Response; adjustResponseHeaders?: (headers: Headers) => void },
): Promise<Response> {
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  const body = hasBody ? new Uint8Array(await request.arrayBuffer()) : undefined;
  try {
    const incoming = await sendRequest(target, {
      method: request.method,
      path: outgoing.path,
      headers: outgoing.headers,
      body,
      signal: request.signal,
    });
    const status = incoming.statusCode ?? 502;
    const nullBody = request.method === "HEAD" || status === 204 || status === 304;
    if (nullBody) incoming.resume();
    const headers = responseHeaders(incoming);
    outgoing.adjustResponseHeaders?.(headers);
    return new Response(nullBody ? null : streamed(incoming), { status, headers });
  } catch (error) {
    return outgoing.onError(error as Error);
  }
}

export function proxyRequest(
  request: Request,
  target: { endpoint: Endpoint; spec: APIServiceSpec; client: ProxyClientCertificate },
  user: UserInfo,
): Promise<Response> {
  const url = new URL(request.url);
  const headers = forwardedHeaders(request);
  setAuthProxyHeaders(headers, user);
  // kube's responder answers a failed round trip with 503 and the error text.
  return forwardRequest(request, { scheme: "https", endpoint: target.endpoint, tls: apiServiceTls(target.spec, target.client) }, {
    path: `${url.pathname}${url.search}`,
    headers,
    onError: (error) => plainError(error.message, 503),
  });
}
