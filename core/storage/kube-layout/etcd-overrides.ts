/**
 * --etcd-servers-overrides as kube-apiserver 1.26 applies them. completedStorageFactoryConfig.New splits each entry
 * `group/resource#server1;server2` (group empty for core) and calls DefaultStorageFactory.SetEtcdLocation, a later
 * entry for the same group/resource replacing an earlier one. NewConfig then gives a resource the servers of its
 * storage resource (the first of its cohabiting resources, AddCohabitatingResources), from a `group/*` entry and then,
 * taking precedence, an exact one. Only resources kube's storage factory stores see overrides ("applies only to
 * resources compiled into this server binary"): the apiextensions and aggregator servers (CRDs, custom resources,
 * APIServices) build their stores with EtcdOptions.ApplyTo's SimpleStorageFactory, and an entry naming a resource
 * nothing stores is kept and never consulted. The Service allocators' RangeAllocations go with Services
 * (storage_core.go: serviceallocator.NewEtcd with the services' storage config).
 */
import { KUBE_STORED_RESOURCES, RANGE_ALLOCATIONS } from "./resources.ts";

/** One more store: these servers hold every kubun key under these prefixes. */
export interface EtcdOverrideStore {
  servers: string[];
  prefixes: string[];
}

/** Groups whose servers build their stores with SimpleStorageFactory, which knows no overrides. */
const SIMPLE_STORAGE_FACTORY_GROUPS = new Set(["apiextensions.k8s.io", "apiregistration.k8s.io"]);

/** Keys kube keeps with a resource's storage config beside its objects. */
const STORED_ALONGSIDE: Readonly<Record<string, readonly string[]>> = { "/services": [RANGE_ALLOCATIONS.kubunPrefix] };

/** kubun's key segment `<group or "core">/<resource>` → kube's flag spelling `<group>/<resource>` (group "" for core). */
function flagGroupResource(segment: string): string {
  return segment.startsWith("core/") ? segment.slice("core".length) : segment;
}

const sameServers = (a: readonly string[], b: readonly string[]) => [...a].sort().join(",") === [...b].sort().join(",");

/**
 * The stores besides the main one that the overrides make, each with the key prefixes it holds; entries that
 * resolve to the main servers, or to no resource kube's storage factory stores, make none.
 */
export function etcdOverrideStores(overrides: readonly string[], mainServers: readonly string[]): EtcdOverrideStore[] {
  const locations = new Map<string, string[]>();
  for (const override of overrides) {
    const [groupResource, servers] = override.split("#");
    locations.set(groupResource!, servers!.split(";"));
  }
  const stores = new Map<string, EtcdOverrideStore>();
  for (const segment of Object.keys(KUBE_STORED_RESOURCES)) {
    if (SIMPLE_STORAGE_FACTORY_GROUPS.has(segment.slice(0, segment.indexOf("/")))) continue;
    const storageResource = flagGroupResource(segment);
    const group = storageResource.slice(0, storageResource.indexOf("/"));
    const servers = locations.get(storageResource) ?? locations.get(`${group}/*`);
    if (servers === undefined || sameServers(servers, mainServers)) continue;
    const id = servers.join(";");
    const store = stores.get(id) ?? { servers, prefixes: [] };
    stores.set(id, store);
    store.prefixes.push(`/${segment}/`, ...(STORED_ALONGSIDE[storageResource] ?? []));
  }
  return [...stores.values()];
}
