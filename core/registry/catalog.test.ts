import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildCatalog, CATALOG_MODULE_PATH, readSwagger, renderCatalogModule, SWAGGER_PATH } from "../../scripts/gen-catalog.ts";
import { parseSpecCatalog } from "./_spec-catalog.ts";
import { builtInCatalog, Catalog, type CatalogChange } from "./catalog.ts";
import type { ResourceType } from "../api/resource-type.ts";

const SPEC_DIR = fileURLToPath(new URL("../../../shared/spec/", import.meta.url));

function crd(overrides: Partial<ResourceType> = {}): ResourceType {
  return {
    group: "example.com",
    version: "v1",
    resource: "widgets",
    singularName: "widget",
    kind: "Widget",
    listKind: "WidgetList",
    namespaced: true,
    shortNames: ["wd"],
    categories: [],
    verbs: ["delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"],
    subresources: [],
    ...overrides,
  };
}

test("the built-in catalog has kube's scope, kind, short names and versions for well-known types", () => {
  const catalog = builtInCatalog();
  const spot = [
    ["", "v1", "pods", "Pod", true, ["po"]],
    ["", "v1", "namespaces", "Namespace", false, ["ns"]],
    ["apps", "v1", "deployments", "Deployment", true, ["deploy"]],
    ["batch", "v1", "cronjobs", "CronJob", true, ["cj"]],
    ["autoscaling", "v2", "horizontalpodautoscalers", "HorizontalPodAutoscaler", true, ["hpa"]],
    ["autoscaling", "v1", "horizontalpodautoscalers", "HorizontalPodAutoscaler", true, ["hpa"]],
    ["flowcontrol.apiserver.k8s.io", "v1beta2", "flowschemas", "FlowSchema", false, []],
    ["policy", "v1beta1", "podsecuritypolicies", "PodSecurityPolicy", false, ["psp"]],
  ] as const;
  for (const [group, version, resource, kind, namespaced, shortNames] of spot) {
    const type = catalog.byGroupVersionResource(group, version, resource);
    expect({ resource, kind: type?.kind, namespaced: type?.namespaced, shortNames: type?.shortNames })
      .toEqual({ resource, kind, namespaced, shortNames: [...shortNames] });
  }
  expect(catalog.byGroupVersionResource("", "v1", "pods")?.categories).toEqual(["all"]);
  expect(catalog.byGroupVersionResource("", "v1", "pods")?.listKind).toBe("PodList");
});

test("the built-in catalog carries kube's subresources with their body kinds and verbs", () => {
  const catalog = builtInCatalog();
  const pods = catalog.byGroupVersionResource("", "v1", "pods");
  const podSub = (name: string) => pods?.subresources.find((subresource) => subresource.name === name);
  expect(podSub("status")).toEqual({ name: "status", kind: "Pod", verbs: ["get", "patch", "update"] });
  expect(podSub("binding")).toEqual({ name: "binding", kind: "Binding", verbs: ["create"] });
  expect(podSub("eviction")).toEqual({ name: "eviction", kind: "Eviction", group: "policy", version: "v1", verbs: ["create"] });
  const deployments = catalog.byGroupVersionResource("apps", "v1", "deployments");
  expect(deployments?.subresources.find((subresource) => subresource.name === "scale")).toEqual({
    name: "scale",
    kind: "Scale",
    group: "autoscaling",
    version: "v1",
    verbs: ["get", "patch", "update"],
  });
  expect(catalog.byGroupVersionResource("authorization.k8s.io", "v1", "subjectaccessreviews")?.verbs).toEqual(["create"]);
  expect(catalog.byGroupVersionResource("", "v1", "componentstatuses")?.verbs).toEqual(["get", "list"]);
});

test("the built-in catalog holds exactly the types of spec 2.13 with their scope, kind and short names", () => {
  const specFile = existsSync(SPEC_DIR) && readdirSync(SPEC_DIR).find((name) => name.endsWith(".txt"));
  if (!specFile) {
    console.log("spec 2.13 check skipped: ../shared/spec is absent");
    return;
  }
  const entries = parseSpecCatalog(readFileSync(SPEC_DIR + specFile, "utf8"));
  const catalog = builtInCatalog();
  expect(entries.length).toBeGreaterThan(50);
  for (const entry of entries) {
    const type = catalog.byGroupVersionResource(entry.group, entry.version, entry.resource);
    expect({ ...entry, found: type !== undefined }).toEqual({ ...entry, found: true });
    expect({ resource: entry.resource, namespaced: type?.namespaced, shortNames: type?.shortNames })
      .toEqual({ resource: entry.resource, namespaced: entry.namespaced, shortNames: entry.shortNames });
    if (entry.kind) expect(type?.kind).toBe(entry.kind);
  }
  // Beyond 2.13's list: TokenReview v1beta1, which spec 2.6 names next to v1, autoscaling/v1, which kube-apiserver
  // 1.26 serves beside v2 (kubectl autoscale posts it), and flowcontrol v1beta3, 1.26's preferred flowcontrol version.
  const extra = catalog.all().filter((type) =>
    !entries.some((e) => e.group === type.group && e.version === type.version && e.resource === type.resource)
  );
  expect(extra.map((type) => `${type.group}/${type.version}/${type.resource}`)).toEqual([
    "authentication.k8s.io/v1beta1/tokenreviews",
    "autoscaling/v1/horizontalpodautoscalers",
    "flowcontrol.apiserver.k8s.io/v1beta3/flowschemas",
    "flowcontrol.apiserver.k8s.io/v1beta3/prioritylevelconfigurations",
  ]);
});

test("catalog.gen.ts is what scripts/gen-catalog.ts generates from ../shared", () => {
  if (!existsSync(SWAGGER_PATH)) {
    console.log("catalog.gen.ts freshness check skipped: ../shared/k8s-api-1.26 is absent");
    return;
  }
  expect(readFileSync(CATALOG_MODULE_PATH, "utf8")).toBe(renderCatalogModule(buildCatalog(readSwagger())));
});

test("byKind() finds a type by group, version and kind", () => {
  const catalog = builtInCatalog();
  expect(catalog.byKind("apps", "v1", "Deployment")?.resource).toBe("deployments");
  expect(catalog.byKind("events.k8s.io", "v1", "Event")?.group).toBe("events.k8s.io");
  expect(catalog.byKind("", "v1", "Event")?.group).toBe("");
  expect(catalog.byKind("apps", "v1", "Pod")).toBeUndefined();
});

test("groups() lists named groups in kube-apiserver 1.26's /apis order with preferred versions first", () => {
  const names = builtInCatalog().groups().map((group) => group.name);
  expect(names).toEqual([
    "apiregistration.k8s.io",
    "apps",
    "events.k8s.io",
    "authentication.k8s.io",
    "authorization.k8s.io",
    "autoscaling",
    "batch",
    "certificates.k8s.io",
    "networking.k8s.io",
    "policy",
    "rbac.authorization.k8s.io",
    "storage.k8s.io",
    "admissionregistration.k8s.io",
    "apiextensions.k8s.io",
    "scheduling.k8s.io",
    "coordination.k8s.io",
    "node.k8s.io",
    "discovery.k8s.io",
    "flowcontrol.apiserver.k8s.io",
  ]);
  expect(builtInCatalog().group("policy")?.versions).toEqual(["v1", "v1beta1"]);
  expect(builtInCatalog().preferredVersion("policy")).toBe("v1");
  expect(builtInCatalog().preferredVersion("")).toBe("v1");
});

test("add() registers a custom type after the built-in groups and tells listeners", () => {
  const catalog = builtInCatalog();
  const changes: CatalogChange[] = [];
  catalog.onChange((change) => changes.push(change));
  catalog.add(crd());
  catalog.add(crd({ version: "v1beta1" }));
  catalog.add(crd({ shortNames: [] }));
  expect(catalog.byKind("example.com", "v1", "Widget")?.shortNames).toEqual([]);
  expect(catalog.groups().at(-1)).toEqual({ name: "example.com", versions: ["v1", "v1beta1"] });
  expect(changes.map((change) => change.type)).toEqual(["added", "added", "updated"]);
  expect(catalog.isBuiltIn(crd())).toBe(false);
  expect(catalog.isBuiltIn(catalog.byGroupVersionResource("", "v1", "pods")!)).toBe(true);
});

test("remove() drops a type, its group when empty, and tells listeners; unsubscribed listeners hear nothing", () => {
  const catalog = new Catalog();
  const changes: string[] = [];
  const unsubscribe = catalog.onChange((change) => changes.push(`${change.type} ${change.resourceType.resource}`));
  catalog.add(crd());
  expect(catalog.remove("example.com", "v1", "widgets")).toBe(true);
  expect(catalog.remove("example.com", "v1", "widgets")).toBe(false);
  expect(catalog.byKind("example.com", "v1", "Widget")).toBeUndefined();
  expect(catalog.groups()).toEqual([]);
  unsubscribe();
  catalog.add(crd());
  expect(changes).toEqual(["added widgets", "removed widgets"]);
});

test("setPriority() moves a group the way an APIService's priorities do", () => {
  const catalog = builtInCatalog();
  catalog.add(crd());
  catalog.setPriority("example.com", "v1", { group: 17900, version: 15 });
  expect(catalog.groups().slice(0, 3).map((group) => group.name)).toEqual(["apiregistration.k8s.io", "example.com", "apps"]);
});
