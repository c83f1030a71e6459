/**
 * One request to a backend over node:http or node:https (they take a CA bundle, a client certificate and the
 * name to verify, and stream the answer). Aggregated servers are addressed at an endpoint but verified as
 * `<service>.<namespace>.svc` like kube-aggregator's transport; the API server's service and pod proxies use the
 * same sender with kube's proxy transport (plain http, or https presenting the proxy client certificate).
 */
import type { IncomingMessage } from "node:http";
import { nodeHttp, nodeHttps } from "../runtime/lazy-builtins.ts";
import type { Endpoint } from "./endpoint-resolver.ts";
import type { APIServiceSpec } from "./service-reference.ts";

export interface ProxyClientCertificate {
  certPem: string;
  keyPem: string;
}

export interface BackendRequest {
  method: string;
  /** Path and query. */
  path: string;
  headers: Headers;
  body?: Uint8Array;
  /** Abandons the request (the caller went away, or a probe timed out). */
  signal?: AbortSignal;
}

/** Where a request goes and, for https, how the connection is secured. */
export interface BackendTarget {
  scheme: "http" | "https";
  endpoint: Endpoint;
  tls?: { client?: ProxyClientCertificate; ca?: string; servername?: string; verify: boolean };
}

function nodeHeaders(headers: Headers): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  headers.forEach((value, name) => {
    // Headers joins repeated lines with ", "; X-Remote-Group must stay one line per group.
    out[name] = name === "x-remote-group" ? value.split(", ") : value;
  });
  return out;
}

/** The host part of a URL (IPv6 addresses in brackets), as Go's net.JoinHostPort writes it. */
export function joinHostPort(host: string, port: number | string): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

export function sendRequest(target: BackendTarget, request: BackendRequest): Promise<IncomingMessage> {
  const { endpoint, tls } = target;
  const url = `${target.scheme}://${joinHostPort(endpoint.host, endpoint.port)}${request.path}`;
  const common = {
    host: endpoint.host,
    port: endpoint.port,
    method: request.method,
    path: request.path,
    headers: nodeHeaders(request.headers),
    signal: request.signal,
    agent: false as const,
  };
  return new Promise((resolve, reject) => {
    const outgoing = target.scheme === "https"
      ? nodeHttps().request({
        ...common,
        servername: tls?.servername,
        ca: tls?.ca,
        rejectUnauthorized: tls?.verify ?? true,
        cert: tls?.client?.certPem,
        key: tls?.client?.keyPem,
      }, resolve)
      : nodeHttp().request(common, resolve);
    // The cause keeps the socket's own error for callers that word the failure themselves.
    outgoing.on("error", (error) => reject(new Error(`${request.method} "${url}": ${error.message}`, { cause: error })));
    outgoing.end(request.body);
  });
}

/** The TLS settings kube-aggregator's transport uses for an APIService. */
export function apiServiceTls(spec: APIServiceSpec, client: ProxyClientCertificate): NonNullable<BackendTarget["tls"]> {
  return {
    client,
    ca: spec.caBundle,
    servername: spec.service ? `${spec.service.name}.${spec.service.namespace}.svc` : undefined,
    verify: !spec.insecureSkipTLSVerify,
  };
}

export function sendToBackend(
  endpoint: Endpoint,
  spec: APIServiceSpec,
  client: ProxyClientCertificate,
  request: BackendRequest,
): Promise<IncomingMessage> {
  return sendRequest({ scheme: "https", endpoint, tls: apiServiceTls(spec, client) }, request);
}
