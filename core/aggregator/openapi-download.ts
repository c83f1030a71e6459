/**
 * Downloads an aggregated server's OpenAPI documents as kube-aggregator's OpenAPI controllers do (downloader.go):
 * /openapi/v2, and from the /openapi/v3 index the document of the APIService's group/version, requested through
 * the front proxy as the user system:aggregator. A document the server does not serve is left out.
 */
import type { IncomingMessage } from "node:http";
import { isPlainObject } from "../api/types.ts";
import { setAuthProxyHeaders } from "./auth-proxy-headers.ts";
import { type ProxyClientCertificate, sendToBackend } from "./backend-request.ts";
import type { Endpoint } from "./endpoint-resolver.ts";
import type { APIServiceSpec } from "./service-reference.ts";

const DOWNLOAD_TIMEOUT_MS = 10_000;

export interface AggregatedOpenApi {
  /** The server's /openapi/v2 document. */
  v2?: Record<string, unknown>;
  /** /openapi/v3 index key (`apis/<group>/<version>`) → document. */
  v3: Map<string, Record<string, unknown>>;
}

async function bodyOf(response: IncomingMessage): Promise<string> {
  let text = "";
  response.setEncoding("utf8");
  for await (const chunk of response) text += chunk;
  return text;
}

async function getJson(
  endpoint: Endpoint,
  spec: APIServiceSpec,
  client: ProxyClientCertificate,
  path: string,
): Promise<Record<string, unknown> | undefined> {
  const headers = new Headers({ Accept: "application/json" });
  setAuthProxyHeaders(headers, { username: "system:aggregator", groups: [] });
  const response = await sendToBackend(endpoint, spec, client, {
    method: "GET",
    path,
    headers,
    signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
  });
  const text = await bodyOf(response);
  if (response.statusCode !== 200) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export async function downloadOpenApi(
  endpoint: Endpoint,
  spec: APIServiceSpec,
  client: ProxyClientCertificate,
): Promise<AggregatedOpenApi> {
  const v2 = await getJson(endpoint, spec, client, "/openapi/v2");
  const v3 = new Map<string, Record<string, unknown>>();
  const key = `apis/${spec.group}/${spec.version}`;
  const index = await getJson(endpoint, spec, client, "/openapi/v3");
  const entry = isPlainObject(index?.paths) ? index.paths[key] : undefined;
  const url = isPlainObject(entry) && typeof entry.serverRelativeURL === "string" ? entry.serverRelativeURL : undefined;
  const document = url ? await getJson(endpoint, spec, client, url) : undefined;
  if (document) v3.set(key, document);
  return { v2, v3 };
}
