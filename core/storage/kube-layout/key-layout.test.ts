import { describe, expect, test } from "bun:test";
import { BUILT_IN_RESOURCE_TYPES } from "../../registry/catalog.gen.ts";
import { collectionPrefix, objectKey, storageGroupOf } from "../../registry/keys.ts";
import { storageVersionHash } from "../../registry/storage-version-hash.ts";
import { hasProtobufEncoding } from "../../api/protobuf/mod.ts";
import { kubeKeyLayout } from "./mod.ts";
import { KUBE_STORED_RESOURCES } from "./resources.ts";

const layout = kubeKeyLayout();
const storedTypes = BUILT_IN_RESOURCE_TYPES.filter((type) => type.storageVersionHash !== undefined);
/** kubun's key segment: cohabiting resources (events.k8s.io Events) are stored as the resource they cohabit with. */
const kubunGroupResource = (type: { group: string; resource: string }) => `${storageGroupOf(type) || "core"}/${type.resource}`;

/**
 * kube's own rule, stated apart from resources.ts: DefaultStorageFactory.ResourcePrefix is the resource name unless
 * SpecialDefaultResourcePrefixes (pkg/kubeapiserver/default_storage_factory_builder.go) names another; the
 * apiextensions and aggregator servers' SimpleRestOptionsFactory prefixes `<group>/<resource>`.
 */
const SPECIAL_DEFAULT_RESOURCE_PREFIXES: Record<string, string> = {
  "core/replicationcontrollers": "controllers",
  "core/endpoints": "services/endpoints",
  "core/nodes": "minions",
  "core/services": "services/specs",
  "networking.k8s.io/ingresses": "ingress",
  "policy/podsecuritypolicies": "podsecuritypolicy",
};
const SIMPLE_REST_OPTIONS_GROUPS = new Set(["apiextensions.k8s.io", "apiregistration.k8s.io"]);

function kubePrefixOf(type: { group: string; resource: string }): string {
  const groupResource = kubunGroupResource(type);
  if (SIMPLE_REST_OPTIONS_GROUPS.has(type.group)) return `${type.group}/${type.resource}`;
  return SPECIAL_DEFAULT_RESOURCE_PREFIXES[groupResource] ?? type.resource;
}

describe("every stored catalog resource has kube 1.26's etcd key (generic Store NamespaceKeyFunc/NoNamespaceKeyFunc)", () => {
  for (const type of storedTypes) {
    test(`${type.group || "core"}/${type.version}/${type.resource}`, () => {
      expect(KUBE_STORED_RESOURCES[kubunGroupResource(type)]).toBeDefined();
      const key = objectKey(type, "ns-a", "name-a");
      const expected = type.namespaced ? `/${kubePrefixOf(type)}/ns-a/name-a` : `/${kubePrefixOf(type)}/name-a`;
      expect(layout.toBackendKey(key)).toBe(expected);
      expect(layout.fromBackendKey(expected)).toBe(key);
      expect(layout.toBackendKey(collectionPrefix(type, ""))).toBe(`/${kubePrefixOf(type)}/`);
      if (type.namespaced) expect(layout.toBackendKey(collectionPrefix(type, "ns-a"))).toBe(`/${kubePrefixOf(type)}/ns-a/`);
    });
  }
});

test("each resource is stored in the version whose hash discovery publishes as its storageVersionHash", () => {
  for (const type of storedTypes) {
    const stored = KUBE_STORED_RESOURCES[kubunGroupResource(type)]!;
    const [group, version] = stored.apiVersion.includes("/") ? stored.apiVersion.split("/") : ["", stored.apiVersion];
    // CRDs: discovery publishes v1's hash while the apiextensions server's EncodeVersioner writes v1beta1 (issue 82292).
    const published = stored.kind === "CustomResourceDefinition" ? "v1" : version!;
    expect(`${type.resource}: ${storageVersionHash(group!, published, stored.kind)}`).toBe(`${type.resource}: ${type.storageVersionHash}`);
  }
});

test("the table names only stored catalog resources, and every protobuf-stored one has kube's protobuf message", () => {
  const served = new Set(storedTypes.map(kubunGroupResource));
  for (const [groupResource, stored] of Object.entries(KUBE_STORED_RESOURCES)) {
    expect(served.has(groupResource)).toBe(true);
    if (!stored.alwaysJson) {
      expect(`${groupResource}: ${hasProtobufEncoding(stored.apiVersion, stored.kind)}`).toBe(`${groupResource}: true`);
    }
  }
  for (const type of BUILT_IN_RESOURCE_TYPES.filter((type) => type.storageVersionHash === undefined)) {
    expect(KUBE_STORED_RESOURCES[kubunGroupResource(type)]).toBeUndefined();
  }
});

test("no two kubun keys share a backend key: the layout is a bijection over what kubun writes", () => {
  const backendKeys = storedTypes.map((type) => layout.toBackendKey(objectKey(type, "ns", "same-name")));
  const distinctTypes = new Set(storedTypes.map(kubunGroupResource));
  expect(new Set(backendKeys).size).toBe(distinctTypes.size);
});

test("custom resources live under <group>/<plural> (apiextensions' SimpleRestOptionsFactory ResourcePrefix)", () => {
  expect(layout.toBackendKey("/stable.example.com/crontabs/default/my-cron")).toBe("/stable.example.com/crontabs/default/my-cron");
  expect(layout.fromBackendKey("/stable.example.com/crontabs/default/my-cron")).toBe("/stable.example.com/crontabs/default/my-cron");
  expect(layout.toBackendKey("/stable.example.com/crontabs/")).toBe("/stable.example.com/crontabs/");
});

test("an older kubun's events.k8s.io Event keys (its own events.k8s.io/events prefix) keep their etcd keys, which the start's move (registry/events-v1-move.ts) reads and deletes", () => {
  expect(layout.toBackendKey("/events.k8s.io/events/")).toBe("/events.k8s.io/events/");
  expect(layout.toBackendKey("/events.k8s.io/events/ns/ev")).toBe("/events.k8s.io/events/ns/ev");
  expect(layout.fromBackendKey("/events.k8s.io/events/ns/ev")).toBe("/events.k8s.io/events/ns/ev");
});

test("kube keys kubun does not serve, and a built-in group's own path, map to no kubun key", () => {
  for (
    const key of [
      "/masterleases/10.0.0.1",
      "/storageversions/kube-apiserver",
      "/rbac.authorization.k8s.io/roles/ns/reader",
      "/core/pods/ns/web",
      "/pods",
    ]
  ) {
    expect(`${key} → ${layout.fromBackendKey(key)}`).toBe(`${key} → undefined`);
  }
});

test("the allocators' RangeAllocations are kube's /ranges/serviceips and /ranges/servicenodeports (serviceallocator.NewEtcd's keys)", () => {
  for (const name of ["serviceips", "servicenodeports"]) {
    expect(layout.toBackendKey(`/_ranges/${name}`)).toBe(`/ranges/${name}`);
    expect(layout.fromBackendKey(`/ranges/${name}`)).toBe(`/_ranges/${name}`);
  }
  expect(layout.toBackendKey("/_ranges/")).toBe("/ranges/");
});

test("kubun's other own keys keep their key, and the whole keyspace maps to itself", () => {
  expect(layout.toBackendKey("/_allocations/clusterips/10.0.0.10")).toBe("/_allocations/clusterips/10.0.0.10");
  expect(layout.fromBackendKey("/_allocations/clusterips/10.0.0.10")).toBe("/_allocations/clusterips/10.0.0.10");
  expect(layout.toBackendKey("/")).toBe("/");
});

test("a built-in key without a kube prefix is refused rather than put where kube would not look", () => {
  expect(() => layout.toBackendKey("/apps/newthings/ns/x")).toThrow("no kube storage prefix");
  expect(() => layout.toBackendKey("/core/")).toThrow();
});
