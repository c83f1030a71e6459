/**
 * One https request to an aggregated server over node:https (it takes a CA bundle, a client certificate and the
 * name to verify, and streams the answer), addressed to an endpoint but verified as `<service>.<namespace>.svc`
 * like kube-aggregator's transport.
 */
import type { IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
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

function nodeHeaders(headers: Headers): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  headers.forEach((value, name) => {
    // Headers joins repeated lines with ", "; X-Remote-Group must stay one line per group.
    out[name] = name === "x-remote-group" ? value.split(", ") : value;
  });
  return out;
}

export function sendToBackend(endpoint: Endpoint, spec: APIServiceSpec, client: ProxyClientCertificate, request: BackendRequest): Promise<IncomingMessage> {
  const url = `https://${endpoint.host}:${endpoint.port}${request.path}`;
  return new Promise((resolve, reject) => {
    const outgoing = httpsRequest({
      host: endpoint.host,
      port: endpoint.port,
      method: request.method,
      path: request.path,
      headers: nodeHeaders(request.headers),
      servername: spec.service ? `${spec.service.name}.${spec.service.namespace}.svc` : undefined,
      ca: spec.caBundle,
      rejectUnauthorized: !spec.insecureSkipTLSVerify,
      cert: client.certPem,
      key: client.keyPem,
      signal: request.signal,
      agent: false,
    }, resolve);
    outgoing.on("error", (error) => reject(new Error(`${request.method} "${url}": ${error.message}`)));
    outgoing.end(request.body);
  });
}
