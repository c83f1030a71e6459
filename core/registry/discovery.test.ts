import { expect, test } from "bun:test";
import { builtInCatalog } from "./catalog.ts";
import { apiGroup, apiGroupList, apiResourceList, apiVersions } from "./discovery.ts";

test("apiVersions() answers /api with v1 and the server address for every client", () => {
  expect(JSON.stringify(apiVersions("127.0.0.1:6443"))).toBe(
    '{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"127.0.0.1:6443"}]}',
  );
});

test("apiGroupList() answers /apis with each group's versions and preferred version", () => {
  const list = apiGroupList(builtInCatalog());
  expect(Object.keys(list)).toEqual(["kind", "apiVersion", "groups"]);
  expect(list.groups[0].name).toBe("apiregistration.k8s.io");
  expect(list.groups.find((group) => group.name === "policy")).toEqual({
    name: "policy",
    versions: [{ groupVersion: "policy/v1", version: "v1" }, { groupVersion: "policy/v1beta1", version: "v1beta1" }],
    preferredVersion: { groupVersion: "policy/v1", version: "v1" },
  });
});

test("apiGroup() answers /apis/<group> as an APIGroup, and nothing for an unknown group", () => {
  expect(JSON.stringify(apiGroup(builtInCatalog(), "apps"))).toBe(
    '{"kind":"APIGroup","apiVersion":"v1","name":"apps","versions":[{"groupVersion":"apps/v1","version":"v1"}],' +
      '"preferredVersion":{"groupVersion":"apps/v1","version":"v1"}}',
  );
  expect(apiGroup(builtInCatalog(), "nope.example.com")).toBeUndefined();
});

test("apiResourceList() for /api/v1 has no apiVersion and lists resources and subresources sorted by path", () => {
  const list = apiResourceList(builtInCatalog(), "", "v1");
  expect(Object.keys(list ?? {})).toEqual(["kind", "groupVersion", "resources"]);
  const names = list?.resources.map((resource) => resource.name) ?? [];
  expect(names.slice(names.indexOf("pods"), names.indexOf("podtemplates") + 1)).toEqual([
    "pods",
    "pods/attach",
    "pods/binding",
    "pods/ephemeralcontainers",
    "pods/eviction",
    "pods/exec",
    "pods/log",
    "pods/portforward",
    "pods/proxy",
    "pods/status",
    "podtemplates",
  ]);
});

test("apiResourceList() writes kube 1.26's entry fields in kube's order, omitting empty ones", () => {
  const resources = apiResourceList(builtInCatalog(), "", "v1")?.resources ?? [];
  const entry = (name: string) => JSON.stringify(resources.find((resource) => resource.name === name));
  expect(entry("pods")).toBe(
    '{"name":"pods","singularName":"","namespaced":true,"kind":"Pod",' +
      '"verbs":["create","delete","deletecollection","get","list","patch","update","watch"],' +
      '"shortNames":["po"],"categories":["all"],"storageVersionHash":"xPOwRZ+Yhw8="}',
  );
  expect(entry("bindings")).toBe('{"name":"bindings","singularName":"","namespaced":true,"kind":"Binding","verbs":["create"]}');
  expect(entry("pods/eviction")).toBe(
    '{"name":"pods/eviction","singularName":"","namespaced":true,"group":"policy","version":"v1","kind":"Eviction","verbs":["create"]}',
  );
  expect(entry("namespaces/finalize")).toBe(
    '{"name":"namespaces/finalize","singularName":"","namespaced":false,"kind":"Namespace","verbs":["update"]}',
  );
});

test("apiResourceList() for a named group carries apiVersion v1 and the scale subresource's autoscaling/v1 kind", () => {
  const list = apiResourceList(builtInCatalog(), "apps", "v1");
  expect(Object.keys(list ?? {})).toEqual(["kind", "apiVersion", "groupVersion", "resources"]);
  expect(list?.groupVersion).toBe("apps/v1");
  expect(list?.resources.find((resource) => resource.name === "deployments/scale")).toEqual({
    name: "deployments/scale",
    singularName: "",
    namespaced: true,
    group: "autoscaling",
    version: "v1",
    kind: "Scale",
    verbs: ["get", "patch", "update"],
  });
});

test("apiResourceList() gives custom types their singular name and keeps their verb order", () => {
  const catalog = builtInCatalog();
  catalog.add({
    group: "example.com",
    version: "v1",
    resource: "widgets",
    singularName: "widget",
    kind: "Widget",
    listKind: "WidgetList",
    namespaced: false,
    shortNames: [],
    categories: ["all"],
    verbs: ["delete", "get", "create"],
    subresources: [{ name: "status", kind: "Widget", verbs: ["get", "patch", "update"] }],
  });
  expect(apiResourceList(catalog, "example.com", "v1")?.resources).toEqual([
    { name: "widgets", singularName: "widget", namespaced: false, kind: "Widget", verbs: ["delete", "get", "create"], categories: ["all"] },
    { name: "widgets/status", singularName: "", namespaced: false, kind: "Widget", verbs: ["get", "patch", "update"] },
  ]);
  expect(apiResourceList(catalog, "example.com", "v2")).toBeUndefined();
});
