import { expect, test } from "bun:test";
import { forwardedUri, rewriteLocation } from "./proxy-rewrite.ts";

test("proxy Transport: X-Forwarded-Uri joins the prefix and the proxied path, keeping a trailing slash", () => {
  expect(forwardedUri("/api/v1/namespaces/d/services/s/proxy", "/a/b/")).toBe("/api/v1/namespaces/d/services/s/proxy/a/b/");
  expect(forwardedUri("/api/v1/namespaces/d/services/s/proxy", "/")).toBe("/api/v1/namespaces/d/services/s/proxy/");
});

test("rewriteURL: redirects to the backend's own paths stay under the proxy; other hosts and relative paths are untouched", () => {
  const prefix = "/api/v1/namespaces/d/services/s/proxy";
  expect(rewriteLocation("/login?next=1", prefix, "127.0.0.1:8080")).toBe(`${prefix}/login?next=1`);
  expect(rewriteLocation("http://127.0.0.1:8080/home/", prefix, "127.0.0.1:8080")).toBe(`http://127.0.0.1:8080${prefix}/home/`);
  expect(rewriteLocation("https://example.com/x", prefix, "127.0.0.1:8080")).toBe("https://example.com/x");
  expect(rewriteLocation("relative/path", prefix, "127.0.0.1:8080")).toBe("relative/path");
  expect(rewriteLocation(`${prefix}/already`, prefix, "127.0.0.1:8080")).toBe(`${prefix}/already`);
});
