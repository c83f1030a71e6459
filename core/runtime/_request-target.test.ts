import { expect, test } from "bun:test";
import { parsesAsRequestUri } from "./_request-target.ts";

test('url.ParseRequestURI accepts an absolute path, "*", an absolute URL, an opaque one and a CONNECT authority', () => {
  for (const target of ["/", "/api/v1?watch=true", "//double", "/a%20b", "/ünïcode", "*", "https://host:6443/api", "http://u:p@h/x"]) {
    expect([target, parsesAsRequestUri("GET", target)]).toEqual([target, true]);
  }
  expect(parsesAsRequestUri("GET", "mailto:someone")).toBe(true);
  expect(parsesAsRequestUri("GET", "https://[::1]:6443/")).toBe(true);
  expect(parsesAsRequestUri("CONNECT", "host:443")).toBe(true);
});

test("url.ParseRequestURI refuses a relative target, a bad escape, a control byte, a missing scheme, a bad port or host", () => {
  const refused = [
    "",
    "api/v1",
    "/a%zz",
    "/a%",
    "/a\x01",
    "/a\x7f",
    ":foo",
    "http://host:port/",
    "http://[::1/",
    "http://[::1]x/",
    "http://ho st/",
    "http://h%41/",
    "http://us{er@host/",
    "https://host/%g0",
  ];
  for (const target of refused) expect([target, parsesAsRequestUri("GET", target)]).toEqual([target, false]);
  expect(parsesAsRequestUri("CONNECT", "host:port")).toBe(false);
});
