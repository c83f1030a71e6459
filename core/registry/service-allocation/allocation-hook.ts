/**
 * The Service write hook (kube's service REST create/update with its allocators): the in-memory allocator proposes
 * cluster IPs and node ports, then the values the Service newly holds are taken in the stored range allocations.
 * A requested value someone else holds is kube's 422; a randomly picked one is skipped and another is picked.
 * Dry runs only read the allocations.
 */
import { newAlreadyExists, newInternalError, newInvalid } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import type { Storage } from "../../storage/storage.ts";
import { objectKey } from "../keys.ts";
import type { HookedWrite, UndoReservation } from "../write-hook.ts";
import { type Exclusions, holdingsOf, ipTakenError, portTakenError, type ServiceAllocator } from "./allocator.ts";
import { claimOffsets, firstTaken, releaseOffsets } from "./range-allocation.ts";
import type { AllocationRanges, PendingReleases } from "./releases.ts";
import type { Holdings } from "./allocator.ts";

const MAX_PICKS = 16;

type ServicePorts = { ports?: { nodePort?: number }[]; clusterIP?: string; clusterIPs?: string[] };

type Outcome = { claimed: (() => Promise<unknown>)[] } | { takenIP: string } | { takenPort: number };

export function allocationHook(storage: Storage, allocator: ServiceAllocator, ranges: AllocationRanges, releases: PendingReleases) {
  return async (write: HookedWrite): Promise<UndoReservation> => {
    const allocatorKey = `${write.namespace}/${String(write.object.metadata.name)}`;
    const name = String(write.object.metadata.name ?? "");
    // Creating a Service that exists is a 409, not a conflict with its own allocations.
    if (write.operation === "create" && (await storage.get(objectKey(write.type, write.namespace, name)))) {
      throw newAlreadyExists({ group: write.type.group, resource: write.type.resource }, name);
    }
    const requested = structuredClone((write.object.spec ?? {}) as ServicePorts);
    const requestedIPs = requested.clusterIPs ?? (requested.clusterIP ? [requested.clusterIP] : []);
    const requestedPorts = (requested.ports ?? []).map((p) => p.nodePort ?? 0);
    const excluded: Exclusions = { ips: new Set(), ports: new Set() };
    for (let pick = 0; pick < MAX_PICKS; pick++) {
      write.object.spec = structuredClone(requested);
      allocator.allocate(allocatorKey, write.object, write.oldObject, excluded);
      const held = newlyHeld(write.object, write.oldObject);
      await releases.settled(held);
      const outcome = write.dryRun ? await checkFree(storage, ranges, held) : await claimAll(storage, ranges, held);
      if ("claimed" in outcome) {
        return () => {
          allocator.release(allocatorKey);
          for (const release of outcome.claimed) releases.track(held, release());
        };
      }
      allocator.release(allocatorKey);
      if ("takenIP" in outcome) {
        if (requestedIPs.includes(outcome.takenIP)) throw newInvalid({ group: "", kind: "Service" }, name, [ipTakenError(outcome.takenIP)]);
        excluded.ips.add(outcome.takenIP);
      } else {
        const index = requestedPorts.indexOf(outcome.takenPort);
        if (index >= 0) throw newInvalid({ group: "", kind: "Service" }, name, [portTakenError(index, outcome.takenPort)]);
        excluded.ports.add(outcome.takenPort);
      }
    }
    throw newInternalError("failed to allocate the Service's cluster IP and node ports: too many conflicts");
  };
}

/** What `service` holds that `old` did not: the values to take in the stored allocations. */
function newlyHeld(service: KubeObject, old: KubeObject | null): Holdings {
  const now = holdingsOf(service);
  const before = old ? holdingsOf(old) : { ips: [], ports: [] };
  return { ips: now.ips.filter((ip) => !before.ips.includes(ip)), ports: now.ports.filter((port) => !before.ports.includes(port)) };
}

const inRange = (offset: number) => offset >= 0;

async function claimAll(storage: Storage, ranges: AllocationRanges, held: Holdings): Promise<Outcome> {
  const ips = held.ips.map(ranges.ipOffset).filter(inRange);
  const ports = held.ports.map(ranges.portOffset).filter(inRange);
  const ipClaim = await claimOffsets(storage, ranges.ips, ips);
  if (ipClaim.taken !== undefined) return { takenIP: ranges.ipAt(ipClaim.taken) };
  const releaseIPs = () => ipClaim.revision === undefined ? Promise.resolve() : releaseOffsets(storage, ranges.ips, ips, ipClaim.revision);
  const portClaim = await claimOffsets(storage, ranges.ports, ports);
  if (portClaim.taken !== undefined) {
    await releaseIPs();
    return { takenPort: ranges.portAt(portClaim.taken) };
  }
  const releasePorts = () =>
    portClaim.revision === undefined ? Promise.resolve() : releaseOffsets(storage, ranges.ports, ports, portClaim.revision);
  return { claimed: [releaseIPs, releasePorts] };
}

async function checkFree(storage: Storage, ranges: AllocationRanges, held: Holdings): Promise<Outcome> {
  const ip = await firstTaken(storage, ranges.ips, held.ips.map(ranges.ipOffset).filter(inRange));
  if (ip !== undefined) return { takenIP: ranges.ipAt(ip) };
  const port = await firstTaken(storage, ranges.ports, held.ports.map(ranges.portOffset).filter(inRange));
  if (port !== undefined) return { takenPort: ranges.portAt(port) };
  return { claimed: [] };
}
