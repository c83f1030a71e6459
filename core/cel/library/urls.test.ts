import { expect, test } from "bun:test";
import { celValue } from "./_expect.ts";

// Facts from k8s.io/apiserver/pkg/cel/library urls_test.go (1.26) and Go's url.ParseRequestURI; the test code is this project's.
test("isURL() accepts absolute URIs and absolute paths only (urls.go isURL: url.ParseRequestURI)", () => {
  expect(celValue("isURL('https://user:pass@example.com:80/path?query=val#fragment')")).toBe(true);
  expect(celValue("isURL('/absolute-path')")).toBe(true);
  expect(celValue("isURL('../relative-path')")).toBe(false);
  expect(celValue("isURL('https://example.com:port')")).toBe(false);
  expect(celValue("isURL('')")).toBe(false);
});

test("url() refuses what isURL() refuses, with kube's conversion message", () => {
  expect(() => celValue("url('../relative-path')")).toThrow(
    'URL parse error during conversion from string: parse "../relative-path": invalid URI for request',
  );
});

test("the URL accessors answer Go's URL fields (getScheme, getHost, getHostname, getPort, getEscapedPath, getQuery)", () => {
  expect(celValue("url('https://example.com:80/').getScheme()")).toBe("https");
  expect(celValue("url('/path').getScheme()")).toBe("");
  expect(celValue("url('https://example.com:80/').getHost()")).toBe("example.com:80");
  expect(celValue("url('https://[::1]:80/').getHost()")).toBe("[::1]:80");
  expect(celValue("url('https://[::1]:80/').getHostname()")).toBe("::1");
  expect(celValue("url('https://example.com/').getPort()")).toBe("");
  expect(celValue("url('https://example.com:8080/').getPort()")).toBe("8080");
  expect(celValue("url('https://example.com/%20path').getEscapedPath()")).toBe("/%20path");
  expect(celValue("url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()")).toEqual({ k1: ["a"], k2: ["b", "c"] });
});
