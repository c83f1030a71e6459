import { expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { acceptsGzip, GZIP_THRESHOLD_BYTES, gzipLargeResponse } from "./compression.ts";

test("negotiateContentEncoding: only a trimmed `gzip` token counts", () => {
  expect(acceptsGzip("gzip")).toBe(true);
  expect(acceptsGzip("br, gzip")).toBe(true);
  expect(acceptsGzip("gzip;q=1")).toBe(false);
  expect(acceptsGzip(null)).toBe(false);
});

test("deferredResponseWriter: compresses only a body larger than defaultGzipThresholdBytes", async () => {
  const exact = await gzipLargeResponse(new Response("x".repeat(GZIP_THRESHOLD_BYTES)));
  expect(exact.headers.has("content-encoding")).toBe(false);
  const large = await gzipLargeResponse(new Response("x".repeat(GZIP_THRESHOLD_BYTES + 1), { status: 201 }));
  expect(large.status).toBe(201);
  expect(large.headers.get("content-encoding")).toBe("gzip");
  expect(gunzipSync(new Uint8Array(await large.arrayBuffer())).byteLength).toBe(GZIP_THRESHOLD_BYTES + 1);
});
