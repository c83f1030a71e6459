/**
 * Response compression (the APIResponseCompression gate; k8s.io/apiserver responsewriters' deferredResponseWriter):
 * a serialized answer larger than 128 KiB is gzipped at level 1 when the client's Accept-Encoding names gzip.
 * Streams (watch, logs, exec, proxy) are left as they are.
 */
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { completeBodyBytes, headAnswer } from "../../runtime/fetch-adapter.ts";
import { nodeZlib } from "../../runtime/lazy-builtins.ts";
import { isLongRunningRequest, type RequestInfo } from "../request-info.ts";

/** deferredResponseWriter's defaultGzipThresholdBytes: only a larger body is compressed. */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;
/** defaultGzipContentEncodingLevel: the least CPU for nearly the same ratio (kubernetes#112296). */
const GZIP_LEVEL = 1;

const GO_ASCII_SPACE_AT_ENDS = /^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g;

/**
 * negotiateContentEncoding: a comma-separated token that is exactly `gzip` once strings.TrimSpace trimmed it. Of a
 * header value's bytes TrimSpace trims ASCII space, \t, \n, \v, \f and \r only (a lone 0x85 or 0xA0 byte is no
 * UTF-8 space), where String.prototype.trim would also drop U+00A0 and others.
 */
export function acceptsGzip(acceptEncoding: string | null): boolean {
  // Asked of every API answer: a request that names no encoding (or none with the letters) splits nothing.
  if (acceptEncoding === null || !acceptEncoding.includes("gzip")) return false;
  return acceptEncoding.split(",").some((token) => token.replace(GO_ASCII_SPACE_AT_ENDS, "") === "gzip");
}

/**
 * The response gzipped with kube's headers when it is over the threshold; otherwise the same bytes. As
 * deferredResponseWriter decides on the first write, only the first 128 KiB are read to decide: a larger (streamed)
 * body is then compressed as it streams, asynchronously, never held whole in memory or compressed on the event loop.
 */
export function gzipLargeResponse(response: Response): Response | Promise<Response> {
  const body = bodyToDecideOn(response);
  if (body === undefined) return response;
  return readPastThreshold(body).then(({ chunks, size, reader, ended }) => {
    if (ended) return new Response(concatenated(chunks, size), response);
    const rest = new ReadableStream<Uint8Array>({
      start: (controller) => chunks.forEach((chunk) => controller.enqueue(chunk)),
      pull: async (controller) => {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    const gzipped = Readable.toWeb(
      Readable.fromWeb(rest as unknown as NodeReadableStream<Uint8Array>).pipe(nodeZlib().createGzip({ level: GZIP_LEVEL })),
    );
    return new Response(gzipped as unknown as ReadableStream<Uint8Array>, {
      status: response.status,
      statusText: response.statusText,
      headers: gzipHeaders(response.headers),
    });
  });
}

/**
 * A HEAD's answer: the headers its GET's answer is sent with, gzip's included when that body would be gzipped, and no
 * body (Go's net/http drops what the GET handler writes). Nothing is gzipped: the decision needs only the size.
 */
export function gzipLargeHeadResponse(response: Response): Response | Promise<Response> {
  const body = bodyToDecideOn(response);
  if (body === undefined) return headAnswer(response);
  return readPastThreshold(body).then(({ reader, ended }) => {
    reader.cancel().catch(ignoreStopFailure);
    return ended
      ? headAnswer(response)
      : new Response(null, { status: response.status, statusText: response.statusText, headers: gzipHeaders(response.headers) });
  });
}

/** The body whose size decides, or undefined when the answer is sent as it is (small, empty or already encoded). */
function bodyToDecideOn(response: Response): ReadableStream<Uint8Array> | undefined {
  // A complete answer's size is known without reading it, which would cost more than writing a small one.
  const known = completeBodyBytes(response) ?? response.headers.get("content-length");
  if (known !== null && Number(known) <= GZIP_THRESHOLD_BYTES) return undefined;
  if (response.body === null || response.headers.has("content-encoding")) return undefined;
  return response.body;
}

interface BodyStart {
  chunks: Uint8Array[];
  size: number;
  reader: ReadableStreamDefaultReader<Uint8Array>;
  /** The whole body was read: it is not over the threshold. */
  ended: boolean;
}

/** The body read until it is past the threshold or ends, whichever comes first. */
async function readPastThreshold(body: ReadableStream<Uint8Array>): Promise<BodyStart> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size <= GZIP_THRESHOLD_BYTES) {
    const { done, value } = await reader.read();
    if (done) return { chunks, size, reader, ended: true };
    chunks.push(value);
    size += value.byteLength;
  }
  return { chunks, size, reader, ended: false };
}

/** deferredResponseWriter's headers for a gzipped body, whose length is not known before it is written. */
function gzipHeaders(original: Headers): Headers {
  const headers = new Headers(original);
  headers.set("Content-Encoding", "gzip");
  headers.append("Vary", "Accept-Encoding");
  headers.delete("Content-Length");
  return headers;
}

/** A body that fails to stop changes nothing of a HEAD's answer, which has none. */
function ignoreStopFailure(): void {}

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
 * aggregated server (kube-aggregator passes those through as that server wrote them). A HEAD gets the headers alone.
 */
export function compressedAnswer(
  request: Request,
  info: RequestInfo,
  response: Response,
  remoteGroupVersions: () => { group: string; version: string }[],
): Response | Promise<Response> {
  const head = request.method === "HEAD";
  // The aggregated group versions are listed from every APIService: asked last, once the answer is large enough to
  // gzip, where every answer to a client accepting gzip (client-go asks for it) listed them.
  if (
    isLongRunningRequest(info) || !acceptsGzip(request.headers.get("accept-encoding")) || bodyToDecideOn(response) === undefined ||
    remoteGroupVersions().some((gv) => gv.group === info.apiGroup && gv.version === info.apiVersion)
  ) {
    return head ? headAnswer(response) : response;
  }
  return head ? gzipLargeHeadResponse(response) : gzipLargeResponse(response);
}
