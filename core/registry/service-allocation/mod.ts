/**
 * Installs Service cluster IP and node port allocation on a registry: the allocator learns every stored Service
 * (and every later commit) and fills in new and updated Services through a write hook that also claims each value
 * as a reservation key; values a commit gives up lose their key, and a periodic repair pass fixes leaks.
 */
import { collectionPrefix } from "../keys.ts";
import type { Storage } from "../../storage/storage.ts";
import type { Registry } from "../registry.ts";
import type { ResourceType } from "../../api/resource-type.ts";
import { ServiceAllocator } from "./allocator.ts";
import { type IPRange, parsePortRange, parseServiceCIDR, type PortRange } from "./ip-range.ts";
import { repairReservations } from "./repair.ts";
import { PendingReleases, releaseReservation, reservationKeysOf } from "./reservation-keys.ts";
import { reservationHook } from "./reservation-hook.ts";
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

/** `storage` is the registry's: the reservations are keys of their own beside the Services. */
export async function installServiceAllocation(
  registry: Registry,
  storage: Storage,
  services: ResourceType,
  ranges: { clusterIPRange: string; nodePortRange: string; repairIntervalMs?: number },
): Promise<ServiceAllocation> {
  const ipRange = parseServiceCIDR(ranges.clusterIPRange);
  const allocator = new ServiceAllocator(ipRange, parsePortRange(ranges.nodePortRange));
  const releases = new PendingReleases();
  const prefix = collectionPrefix(services, "");
  await repairReservations(storage, prefix);
  const follow = await registry.follow(prefix, (event) => {
    const { namespace, name, uid } = event.object.metadata;
    const given = allocator.committed(keyOf(String(namespace), String(name)), event.type === "DELETED" ? undefined : event.object);
    for (const key of reservationKeysOf(given)) releases.track(key, releaseReservation(storage, key, String(uid)));
  });
  const unregister = registry.writeHooks.register(services.group, services.resource, reservationHook(storage, allocator, releases));
  const repairs = setInterval(() => {
    repairReservations(storage, prefix).catch((error) => log.error("repairing Service IP reservations failed", error));
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
