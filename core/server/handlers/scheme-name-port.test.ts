import { expect, test } from "bun:test";
import { splitSchemeNamePort } from "./scheme-name-port.ts";

test("splitSchemeNamePort (utilnet.SplitSchemeNamePort) accepts name, name:port and scheme:name:port", () => {
  expect(splitSchemeNamePort("web")).toEqual({ scheme: "", name: "web", port: "" });
  expect(splitSchemeNamePort("web:8080")).toEqual({ scheme: "", name: "web", port: "8080" });
  expect(splitSchemeNamePort("https:web:443")).toEqual({ scheme: "https", name: "web", port: "443" });
  expect(splitSchemeNamePort("http:web:")).toEqual({ scheme: "http", name: "web", port: "" });
});

test("splitSchemeNamePort refuses an empty name, an unknown scheme and more than three parts", () => {
  expect(splitSchemeNamePort(":80")).toBeUndefined();
  expect(splitSchemeNamePort("ftp:web:21")).toBeUndefined();
  expect(splitSchemeNamePort("a:b:c:d")).toBeUndefined();
});
