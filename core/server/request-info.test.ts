import { expect, test } from "bun:test";
import { namesEmptyNamespace, parseRequestInfo, splitPath } from "./request-info.ts";

function info(method: string, path: string) {
  const r = parseRequestInfo(method, new URL(`https://h${path}`));
  return {
    verb: r.verb,
    group: r.apiGroup,
    version: r.apiVersion,
    ns: r.namespace,
    resource: r.resource,
    name: r.name,
    sub: r.subresource,
    res: r.isResourceRequest,
  };
}

test.each([
  ["GET", "/api/v1/pods", { verb: "list", group: "", version: "v1", ns: "", resource: "pods", name: "", sub: "", res: true }],
  ["GET", "/api/v1/namespaces/ns1/pods/p1", {
    verb: "get",
    group: "",
    version: "v1",
    ns: "ns1",
    resource: "pods",
    name: "p1",
    sub: "",
    res: true,
  }],
  ["PUT", "/api/v1/namespaces/ns1/pods/p1/status", {
    verb: "update",
    group: "",
    version: "v1",
    ns: "ns1",
    resource: "pods",
    name: "p1",
    sub: "status",
    res: true,
  }],
  ["GET", "/api/v1/namespaces/ns1", {
    verb: "get",
    group: "",
    version: "v1",
    ns: "ns1",
    resource: "namespaces",
    name: "ns1",
    sub: "",
    res: true,
  }],
  ["PUT", "/api/v1/namespaces/ns1/finalize", {
    verb: "update",
    group: "",
    version: "v1",
    ns: "ns1",
    resource: "namespaces",
    name: "ns1",
    sub: "finalize",
    res: true,
  }],
  ["GET", "/api/v1/namespaces", { verb: "list", group: "", version: "v1", ns: "", resource: "namespaces", name: "", sub: "", res: true }],
  ["GET", "/apis/apps/v1/namespaces/d/deployments?watch=1", {
    verb: "watch",
    group: "apps",
    version: "v1",
    ns: "d",
    resource: "deployments",
    name: "",
    sub: "",
    res: true,
  }],
  ["GET", "/apis/apps/v1/namespaces/d/deployments?watch=True", {
    verb: "watch",
    group: "apps",
    version: "v1",
    ns: "d",
    resource: "deployments",
    name: "",
    sub: "",
    res: true,
  }],
  ["GET", "/api/v1/pods?watch", { verb: "watch", group: "", version: "v1", ns: "", resource: "pods", name: "", sub: "", res: true }],
  ["GET", "/api/v1/pods?watch=FALSE", { verb: "list", group: "", version: "v1", ns: "", resource: "pods", name: "", sub: "", res: true }],
  ["GET", "/api/v1/namespaces/ns1/pods/", {
    verb: "list",
    group: "",
    version: "v1",
    ns: "ns1",
    resource: "pods",
    name: "",
    sub: "",
    res: true,
  }],
  ["GET", "/apis/apps/v1/watch/namespaces/d/deployments", {
    verb: "watch",
    group: "apps",
    version: "v1",
    ns: "d",
    resource: "deployments",
    name: "",
    sub: "",
    res: true,
  }],
  ["DELETE", "/api/v1/namespaces/d/configmaps", {
    verb: "deletecollection",
    group: "",
    version: "v1",
    ns: "d",
    resource: "configmaps",
    name: "",
    sub: "",
    res: true,
  }],
  ["PATCH", "/apis/apps/v1/namespaces/d/deployments/x/scale", {
    verb: "patch",
    group: "apps",
    version: "v1",
    ns: "d",
    resource: "deployments",
    name: "x",
    sub: "scale",
    res: true,
  }],
  ["POST", "/api/v1/nodes", { verb: "create", group: "", version: "v1", ns: "", resource: "nodes", name: "", sub: "", res: true }],
])("%s %s is classified as kube does", (method, path, expected) => {
  expect(info(method, path)).toEqual(expected);
});

test("paths outside /api and /apis are non-resource requests with the lower-cased method as verb", () => {
  for (const path of ["/healthz", "/version", "/api", "/apis", "/apis/apps", "/api/v1", "/apis/apps/v1", "/api/v1/", "/apis/apps/v1/"]) {
    const r = parseRequestInfo("GET", new URL(`https://h${path}`));
    expect(r.isResourceRequest).toBe(false);
    expect(r.verb).toBe("get");
  }
});

test('parseRequestInfo() reads the path as sent: an encoded ".." stays a name (kube\'s RequestInfoFactory does not resolve dot segments)', () => {
  const sent = "/api/v1/namespaces/default/configmaps/%2e%2e";
  const info = parseRequestInfo("GET", new URL(`https://h${sent}`), sent);
  expect([info.namespace, info.resource, info.name, info.verb]).toEqual(["default", "configmaps", "..", "get"]);
});

test("RequestInfoFactory.NewRequestInfo: a too-short /apis path, the proxy verb, legacy watch and escapes in segments", () => {
  const parse = (path: string, method = "GET") => parseRequestInfo(method, new URL(`https://h${path}`), path);
  expect(parse("/apis/apps")).toMatchObject({ isResourceRequest: false, apiPrefix: "apis", apiGroup: "", verb: "get" });
  expect(parse("/apis/apps/v1")).toMatchObject({ isResourceRequest: false, apiGroup: "apps", apiVersion: "v1" });
  expect(parse("/api/v1/proxy/namespaces/ns1/pods/p1")).toMatchObject({ verb: "proxy", resource: "pods", name: "p1" });
  expect(parse("/api/v1/watch/namespaces/ns1/pods", "GET")).toMatchObject({ verb: "watch", resource: "pods", parts: ["pods"] });
  expect(parse("/api/v1/namespaces/ns1/configmaps/a%3Ab")).toMatchObject({ name: "a:b" });
  expect(parse("/api/v1/namespaces/ns1/configmaps/bad%E0%A4%A")).toMatchObject({ name: "bad%E0%A4%A" });
  expect(parse("/api/v1/namespaces/ns1/status", "PUT")).toMatchObject({ resource: "namespaces", name: "ns1", subresource: "status" });
});

test("splitPath: slashes at either end are dropped, those inside leave empty segments where kube's routes have none", () => {
  const parse = (path: string, method = "GET") => parseRequestInfo(method, new URL(`https://h${path}`), path);
  expect(splitPath("/")).toEqual([]);
  expect(splitPath("//api/v1//pods//")).toEqual(["api", "v1", "", "pods"]);
  expect(splitPath("/api/v1/pods")).toEqual(["api", "v1", "pods"]);
  expect(splitPath("api/v1/pods/")).toEqual(["api", "v1", "pods"]);
  expect(splitPath("///")).toEqual([]);
  expect(splitPath("///x///y///")).toEqual(["x", "", "", "y"]);
  expect(parse("//api/v1/namespaces/ns1/pods/p1//")).toMatchObject({ resource: "pods", namespace: "ns1", name: "p1", verb: "get" });
  expect(parse("/api/v1/namespaces/default//configmaps")).toMatchObject({
    namespace: "default",
    resource: "",
    name: "configmaps",
    verb: "get",
  });
  expect(parse("/api/v1/namespaces//configmaps")).toMatchObject({ namespace: "", resource: "configmaps", name: "", verb: "list" });
  expect(parse("/api/v1/namespaces/default/pods//status")).toMatchObject({ resource: "pods", name: "", subresource: "status" });
  expect(parse("/api//v1/namespaces")).toMatchObject({ apiVersion: "", resource: "v1", name: "namespaces" });
});

test("namesEmptyNamespace: an empty namespace segment, told apart from a path without one", () => {
  const parse = (path: string) => parseRequestInfo("GET", new URL(`https://h${path}`), path);
  expect(namesEmptyNamespace(parse("/api/v1/namespaces//configmaps/x"))).toBe(true);
  expect(namesEmptyNamespace(parse("/apis/apps/v1/namespaces//deployments/x"))).toBe(true);
  expect(namesEmptyNamespace(parse("/api/v1/configmaps/x"))).toBe(false);
  expect(namesEmptyNamespace(parse("/api/v1/namespaces/default/configmaps/x"))).toBe(false);
});
