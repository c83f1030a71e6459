/**
 * Response compression (the APIResponseCompression gate; k8s.io/apiserver responsewriters' deferredResponseWriter):
 * a serialized answer larger than 128 KiB is gzipped at level 1 when the client's Accept-Encoding names gzip.
 * Streams (watch, logs, exec, proxy) are left as they are.
 */
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { createGzip } from "node:zlib";
import { completeBodyBytes } from "../../runtime/fetch-adapter.ts";
import { isLongRunningRequest, type RequestInfo } from "../request-info.ts";

/** deferredResponseWriter's defaultGzipThresholdBytes: only a larger body is compressed. */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;
/** defaultGzipContentEncodingLevel: the least CPU for nearly the same ratio (kubernetes#112296). */
const GZIP_LEVEL = 1;

/** negotiateContentEncoding: a comma-separated token that is exactly `gzip` once trimmed. */
export function acceptsGzip(acceptEncoding: string | null): boolean {
  return (acceptEncoding ?? "").split(",").some((token) => token.trim() === "gzip");
}

/**
 * The response gzipped with kube's headers when it is over the threshold; otherwise the same bytes. As
 * deferredResponseWriter decides on the first write, only the first 128 KiB are read to decide: a larger (streamed)
 * body is then compressed as it streams, asynchronously, never held whole in memory or compressed on the event loop.
 */
export function gzipLargeResponse(response: Response): Response | Promise<Response> {
  // A complete answer's size is known without reading it, which would cost more than writing a small one.
  const known = completeBodyBytes(response) ?? response.headers.get("content-length");
  if (known !== null && Number(known) <= GZIP_THRESHOLD_BYTES) return response;
  if (response.body === null || response.headers.has("content-encoding")) return response;
  return gzipReadResponse(response, response.body);
}

/** The body read up to the threshold to decide, then gzipped as it streams when larger. */
async function gzipReadResponse(response: Response, body: ReadableStream<Uint8Array>): Promise<Response> {
  const reader = body.getReader();
  const head: Uint8Array[] = [];
  let size = 0;
  while (size <= GZIP_THRESHOLD_BYTES) {
    const { done, value } = await reader.read();
    if (done) return new Response(concatenated(head, size), response);
    head.push(value);
    size += value.byteLength;
  }
  const rest = new ReadableStream<Uint8Array>({
    start: (controller) => head.forEach((chunk) => controller.enqueue(chunk)),
    pull: async (controller) => {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const gzipped = Readable.toWeb(
    Readable.fromWeb(rest as unknown as NodeReadableStream<Uint8Array>).pipe(createGzip({ level: GZIP_LEVEL })),
  );
  const headers = new Headers(response.headers);
  headers.set("Content-Encoding", "gzip");
  headers.append("Vary", "Accept-Encoding");
  headers.delete("Content-Length");
  return new Response(gzipped as unknown as ReadableStream<Uint8Array>, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

function concatenated(chunks: Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * The answer as the client gets it: gzipped when large, not long-running, asked for, and not proxied from an
 * aggregated server (kube-aggregator passes those through as that server wrote them).
 */
export function compressedAnswer(
  request: Request,
  info: RequestInfo,
  response: Response,
  remoteGroupVersions: () => { group: string; version: string }[],
): Response | Promise<Response> {
  if (isLongRunningRequest(info) || !acceptsGzip(request.headers.get("accept-encoding"))) return response;
  if (remoteGroupVersions().some((gv) => gv.group === info.apiGroup && gv.version === info.apiVersion)) return response;
  return gzipLargeResponse(response);
}
