import { expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { completeResponse } from "../../runtime/fetch-adapter.ts";
import { parseRequestInfo } from "../request-info.ts";
import { acceptsGzip, compressedAnswer, GZIP_THRESHOLD_BYTES, gzipLargeHeadResponse, gzipLargeResponse } from "./compression.ts";

test("negotiateContentEncoding: only a trimmed `gzip` token counts", () => {
  expect(acceptsGzip("gzip")).toBe(true);
  expect(acceptsGzip("br, gzip")).toBe(true);
  expect(acceptsGzip("gzip;q=1")).toBe(false);
  expect(acceptsGzip(null)).toBe(false);
  expect(acceptsGzip("")).toBe(false);
  expect(acceptsGzip("deflate, br")).toBe(false);
  expect(acceptsGzip(" gzip ")).toBe(true);
});

test("negotiateContentEncoding trims as strings.TrimSpace does a header value's bytes: ASCII spaces, not 0xA0", () => {
  expect(acceptsGzip("gzip \t")).toBe(true);
  expect(acceptsGzip("deflate,\vgzip\f")).toBe(true);
  expect(acceptsGzip("gzip\u00a0")).toBe(false);
  expect(acceptsGzip("\ufeffgzip")).toBe(false);
});

test("deferredResponseWriter: compresses only a body larger than defaultGzipThresholdBytes", async () => {
  const exact = await gzipLargeResponse(new Response("x".repeat(GZIP_THRESHOLD_BYTES)));
  expect(exact.headers.has("content-encoding")).toBe(false);
  const large = await gzipLargeResponse(new Response("x".repeat(GZIP_THRESHOLD_BYTES + 1), { status: 201 }));
  expect(large.status).toBe(201);
  expect(large.headers.get("content-encoding")).toBe("gzip");
  expect(gunzipSync(new Uint8Array(await large.arrayBuffer())).byteLength).toBe(GZIP_THRESHOLD_BYTES + 1);
});

test("a streamed body past the threshold is compressed as it streams, before its end has been produced", async () => {
  let finish = () => {};
  const ended = new Promise<void>((resolve) => (finish = resolve));
  const chunk = new TextEncoder().encode("y".repeat(100 * 1024));
  const source = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(chunk);
      controller.enqueue(chunk);
      await ended;
      controller.enqueue(chunk);
      controller.close();
    },
  });
  const answer = await gzipLargeResponse(new Response(source));
  expect(answer.headers.get("content-encoding")).toBe("gzip");
  finish();
  expect(gunzipSync(new Uint8Array(await answer.arrayBuffer())).byteLength).toBe(3 * chunk.byteLength);
});

test("a complete answer is sized without being read: under the threshold it goes out as made, over it is gzipped", async () => {
  const small = completeResponse("é".repeat(GZIP_THRESHOLD_BYTES / 2));
  expect(await gzipLargeResponse(small)).toBe(small);
  expect(small.bodyUsed).toBe(false);
  // Half as many characters as the threshold, but two bytes each in UTF-8: one byte over.
  const large = await gzipLargeResponse(completeResponse(`${"é".repeat(GZIP_THRESHOLD_BYTES / 2)}x`));
  expect(large.headers.get("content-encoding")).toBe("gzip");
  expect(gunzipSync(new Uint8Array(await large.arrayBuffer())).byteLength).toBe(GZIP_THRESHOLD_BYTES + 1);
});

test("a HEAD gets the headers deferredResponseWriter gives its GET, gzip's included, and no body", async () => {
  const large = await gzipLargeHeadResponse(
    completeResponse("x".repeat(GZIP_THRESHOLD_BYTES + 1), { status: 404, headers: { "Content-Type": "application/json" } }),
  );
  expect([large.status, large.body]).toEqual([404, null]);
  expect(["content-type", "content-encoding", "vary", "content-length"].map((name) => large.headers.get(name))).toEqual([
    "application/json",
    "gzip",
    "Accept-Encoding",
    null,
  ]);
  const small = await gzipLargeHeadResponse(new Response("x".repeat(GZIP_THRESHOLD_BYTES)));
  expect(small.body).toBe(null);
  expect(small.headers.has("content-encoding")).toBe(false);
});

test("a HEAD's streamed body is read only until it is past the threshold, and then let go", async () => {
  const chunk = new TextEncoder().encode("y".repeat(100 * 1024));
  let pulls = 0;
  let cancelled = false;
  const endless = new ReadableStream<Uint8Array>({
    pull: (controller) => {
      pulls++;
      controller.enqueue(chunk);
    },
    cancel: () => void (cancelled = true),
  }, { highWaterMark: 0 });
  const answer = await gzipLargeHeadResponse(new Response(endless));
  expect(answer.headers.get("content-encoding")).toBe("gzip");
  expect(answer.body).toBe(null);
  expect(pulls).toBe(2);
  expect(cancelled).toBe(true);
});

test("compressedAnswer: a small answer to a client accepting gzip goes out as made without listing the aggregated groups", () => {
  const info = parseRequestInfo("GET", new URL("https://h/api/v1/namespaces/default/configmaps/a"));
  const request = new Request("https://h/api/v1/namespaces/default/configmaps/a", { headers: { "Accept-Encoding": "gzip" } });
  let listed = 0;
  const remote = () => {
    listed++;
    return [];
  };
  const small = completeResponse("{}", { headers: { "Content-Type": "application/json" } });
  expect(compressedAnswer(request, info, small, remote)).toBe(small);
  expect(listed).toBe(0);
  const large = completeResponse("x".repeat(200 * 1024), { headers: { "Content-Type": "application/json" } });
  expect(compressedAnswer(request, info, large, remote)).toBeInstanceOf(Promise);
  expect(listed).toBe(1);
});
