import { expect, test } from "bun:test";
import { etcdOverrideStores } from "./etcd-overrides.ts";

const MAIN = ["http://127.0.0.1:2379"];
const OTHER = "http://127.0.0.1:2389";

test("completedStorageFactoryConfig.New: `/events#servers` moves core Events, the collection events.k8s.io Events live in", () => {
  expect(etcdOverrideStores([`/events#${OTHER}`], MAIN)).toEqual([{ servers: [OTHER], prefixes: ["/core/events/"] }]);
});

test("SetEtcdLocation: servers split on ';', and resources naming the same servers share one store", () => {
  const servers = `${OTHER};http://127.0.0.1:2399`;
  expect(etcdOverrideStores([`coordination.k8s.io/leases#${servers}`, `apps/deployments#${servers}`], MAIN)).toEqual([
    { servers: [OTHER, "http://127.0.0.1:2399"], prefixes: ["/apps/deployments/", "/coordination.k8s.io/leases/"] },
  ]);
});

test("NewConfig: a group/* entry moves the group's resources, and an exact entry takes precedence over it", () => {
  const stores = etcdOverrideStores(["apps/*#http://a:2379", "apps/deployments#http://b:2379"], MAIN);
  expect(stores).toEqual([
    {
      servers: ["http://a:2379"],
      prefixes: ["/apps/controllerrevisions/", "/apps/daemonsets/", "/apps/replicasets/", "/apps/statefulsets/"],
    },
    { servers: ["http://b:2379"], prefixes: ["/apps/deployments/"] },
  ]);
});

test("SetEtcdLocation: a later entry for the same resource replaces an earlier one", () => {
  expect(etcdOverrideStores(["/pods#http://a:2379", "/pods#http://b:2379"], MAIN)).toEqual([
    { servers: ["http://b:2379"], prefixes: ["/core/pods/"] },
  ]);
});

test("storage_core.go: the Service allocators' RangeAllocations stay with Services' servers", () => {
  expect(etcdOverrideStores([`/services#${OTHER}`], MAIN)).toEqual([{ servers: [OTHER], prefixes: ["/core/services/", "/_ranges/"] }]);
});

test("overrides only apply to resources kube's storage factory stores: CRDs, APIServices, cohabitants and unknown names stay", () => {
  const ignored = [
    "apiextensions.k8s.io/customresourcedefinitions",
    "apiregistration.k8s.io/apiservices",
    "stable.example.com/crontabs",
    "events.k8s.io/events",
    "events.k8s.io/*",
    "extensions/ingresses",
    "/bindings",
    "core/pods",
  ].map((resource) => `${resource}#${OTHER}`);
  expect(etcdOverrideStores(ignored, MAIN)).toEqual([]);
});

test("an override naming the main servers makes no second store: one etcd is one revision sequence", () => {
  expect(etcdOverrideStores([`/events#${MAIN[0]}`], MAIN)).toEqual([]);
});
