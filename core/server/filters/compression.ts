/**
 * Response compression (the APIResponseCompression gate; k8s.io/apiserver responsewriters' deferredResponseWriter):
 * a serialized answer larger than 128 KiB is gzipped at level 1 when the client's Accept-Encoding names gzip.
 * Streams (watch, logs, exec, proxy) are left as they are.
 */
import { gzipSync } from "node:zlib";
import { isLongRunningRequest, type RequestInfo } from "../request-info.ts";

/** deferredResponseWriter's defaultGzipThresholdBytes: only a larger body is compressed. */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;
/** defaultGzipContentEncodingLevel: the least CPU for nearly the same ratio (kubernetes#112296). */
const GZIP_LEVEL = 1;

/** negotiateContentEncoding: a comma-separated token that is exactly `gzip` once trimmed. */
export function acceptsGzip(acceptEncoding: string | null): boolean {
  return (acceptEncoding ?? "").split(",").some((token) => token.trim() === "gzip");
}

/** The response gzipped with kube's headers when it is over the threshold; otherwise the response itself. */
export async function gzipLargeResponse(response: Response): Promise<Response> {
  if (response.body === null || response.headers.has("content-encoding")) return response;
  const body = new Uint8Array(await response.arrayBuffer());
  if (body.byteLength <= GZIP_THRESHOLD_BYTES) return new Response(body, response);
  const headers = new Headers(response.headers);
  headers.set("Content-Encoding", "gzip");
  headers.append("Vary", "Accept-Encoding");
  headers.delete("Content-Length");
  return new Response(gzipSync(body, { level: GZIP_LEVEL }), { status: response.status, statusText: response.statusText, headers });
}

/**
 * The answer as the client gets it: gzipped when large, not long-running, asked for, and not proxied from an
 * aggregated server (kube-aggregator passes those through as that server wrote them).
 */
export async function compressedAnswer(
  request: Request,
  info: RequestInfo,
  response: Response,
  remoteGroupVersions: () => { group: string; version: string }[],
): Promise<Response> {
  if (isLongRunningRequest(info) || !acceptsGzip(request.headers.get("accept-encoding"))) return response;
  if (remoteGroupVersions().some((gv) => gv.group === info.apiGroup && gv.version === info.apiVersion)) return response;
  return await gzipLargeResponse(response);
}
