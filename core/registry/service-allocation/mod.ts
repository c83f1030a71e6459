/**
 * Installs Service cluster IP and node port allocation on a registry: the allocator learns every stored Service
 * (and every later commit) and fills in new and updated Services through a write hook.
 */
import { collectionPrefix } from "../keys.ts";
import { followCollection } from "../collection-follow.ts";
import type { Registry } from "../registry.ts";
import type { ResourceType } from "../resource-type.ts";
import { ServiceAllocator } from "./allocator.ts";
import { type IPRange, type PortRange, parsePortRange, parseServiceCIDR } from "./ip-range.ts";

export { parsePortRange, parseServiceCIDR };
export type { IPRange, PortRange };

export interface ServiceAllocation {
  ipRange: IPRange;
  stop(): void;
}

const keyOf = (namespace: string, name: string) => `${namespace}/${name}`;

export async function installServiceAllocation(registry: Registry, services: ResourceType, ranges: { clusterIPRange: string; nodePortRange: string }): Promise<ServiceAllocation> {
  const ipRange = parseServiceCIDR(ranges.clusterIPRange);
  const allocator = new ServiceAllocator(ipRange, parsePortRange(ranges.nodePortRange));
  const follow = await followCollection(registry.storage, collectionPrefix(services, ""), (event) => {
    const { namespace, name } = event.object.metadata;
    allocator.committed(keyOf(String(namespace), String(name)), event.type === "DELETED" ? undefined : event.object);
  });
  const unregister = registry.writeHooks.register(services.group, services.resource, (write) => {
    const key = keyOf(write.namespace, String(write.object.metadata.name));
    allocator.allocate(key, write.object, write.oldObject);
    return () => allocator.release(key);
  });
  return {
    ipRange,
    stop() {
      unregister();
      follow.stop();
    },
  };
}
