/**
 * Installs Service cluster IP and node port allocation on a registry: the allocator learns every stored Service
 * (and every later commit) and fills in new and updated Services through a write hook that also takes each value
 * in kube's stored range allocations; values a commit gives up are freed, and a periodic repair pass fixes leaks.
 */
import { collectionPrefix } from "../keys.ts";
import type { Storage } from "../../storage/storage.ts";
import type { Registry } from "../registry.ts";
import type { ResourceType } from "../../api/resource-type.ts";
import { ServiceAllocator } from "./allocator.ts";
import { type IPRange, parsePortRange, parseServiceCIDR, type PortRange } from "./ip-range.ts";
import { AllocationRepair } from "./repair.ts";
import { allocationRanges, PendingReleases, releaseHoldings } from "./releases.ts";
import { allocationHook } from "./allocation-hook.ts";
import { logger } from "../../log/mod.ts";

const log = logger("service-allocation");

export { parsePortRange, parseServiceCIDR };
export type { IPRange, PortRange };

export interface ServiceAllocation {
  ipRange: IPRange;
  stop(): void;
}

const REPAIR_INTERVAL_MS = 60_000;

const keyOf = (namespace: string, name: string) => `${namespace}/${name}`;

/** `storage` is the registry's: the range allocations are keys of their own beside the Services. */
export async function installServiceAllocation(
  registry: Registry,
  storage: Storage,
  services: ResourceType,
  ranges: {
    clusterIPRange: string;
    nodePortRange: string;
    repairIntervalMs?: number;
    /** No other process writes `storage`: this start's first repair pass frees leaked values at once. */
    soleWriter?: boolean;
  },
): Promise<ServiceAllocation> {
  const ipRange = parseServiceCIDR(ranges.clusterIPRange);
  const portRange = parsePortRange(ranges.nodePortRange);
  const allocator = new ServiceAllocator(ipRange, portRange);
  const stored = allocationRanges(ipRange, portRange);
  const releases = new PendingReleases();
  const prefix = collectionPrefix(services, "");
  const repair = new AllocationRepair(storage, stored, prefix);
  // Before the hook is installed: this process has no Service write in flight yet.
  await repair.runOnce({ noWritesInFlight: ranges.soleWriter });
  const follow = await registry.follow(prefix, (event) => {
    const { namespace, name, resourceVersion } = event.object.metadata;
    const given = allocator.committed(keyOf(String(namespace), String(name)), event.type === "DELETED" ? undefined : event.object);
    if (given.ips.length + given.ports.length > 0) releases.track(given, releaseHoldings(storage, stored, given, Number(resourceVersion)));
  });
  const unregister = registry.writeHooks.register(services.group, services.resource, allocationHook(storage, allocator, stored, releases));
  const repairs = setInterval(() => {
    repair.runOnce().catch((error) => log.error("repairing Service IP and node port allocations failed", error));
  }, ranges.repairIntervalMs ?? REPAIR_INTERVAL_MS);
  return {
    ipRange,
    stop() {
      clearInterval(repairs);
      unregister();
      follow.stop();
    },
  };
}
export { formatIPv4 } from "./ip-range.ts";
