/**
 * The request body's size limit (kube's --max-request-bytes, read through limitedReadBody): a larger body is kube's
 * 413, given after reading past the limit as limitedReadBody does whatever the declared length (the server then
 * drops a short rest and keeps the connection). A chunked body within the limit is handed on as bytes; a request
 * without a body, or with an acceptable declared length, passes with no promise.
 */
import { newRequestEntityTooLarge } from "../../api/errors.ts";
import { respondError } from "../respond.ts";

function tooLarge(request: Request, maxBytes: number): Response {
  return respondError(newRequestEntityTooLarge(maxBytes), request.headers.get("accept"));
}

/** `request` when it may be served, a buffered copy of it after reading a chunked body, or the 413 to answer with. */
export function limitBody(request: Request, maxBytes: number): Request | Response | Promise<Request | Response> {
  // A served GET or HEAD has no body (fetch-adapter.ts toRequest).
  if (request.method === "GET" || request.method === "HEAD") return request;
  // The declared length before the body: a Request's body stream is made when first asked for, ~0.5 µs of a create
  // whose whole body came as bytes and is read as such (bench/profiles/create-path.md, thirteenth session).
  const length = request.headers.get("content-length");
  if (length !== null && !request.headers.has("transfer-encoding") && Number.parseInt(length, 10) <= maxBytes) return request;
  const body = request.body;
  return body ? readLimited(request, body, maxBytes) : request;
}

async function readLimited(request: Request, body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Request | Response> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) {
      // The rest is the listener's to drop or refuse (settleUnreadBody), as Go's server does after the handler.
      void reader.cancel();
      return tooLarge(request, maxBytes);
    }
    chunks.push(value);
  }
  return new Request(request, { body: Buffer.concat(chunks, size) });
}
