/**
 * The Service write hook: the in-memory allocator proposes cluster IPs and node ports, then each value the Service
 * newly holds is claimed as a reservation key. A requested value someone else holds is kube's 422; a randomly
 * picked one is skipped and another is picked. Dry runs only read the keys.
 */
import { newAlreadyExists, newInternalError, newInvalid } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import type { KeyValue, Storage } from "../../storage/storage.ts";
import { objectKey } from "../keys.ts";
import type { HookedWrite, UndoReservation } from "../write-hook.ts";
import { type Exclusions, holdingsOf, ipTakenError, portTakenError, type ServiceAllocator } from "./allocator.ts";
import {
  claimReservation,
  heldByOther,
  type Holdings,
  ipReservationKey,
  ownerOf,
  type PendingReleases,
  portReservationKey,
  releaseReservation,
} from "./reservation-keys.ts";

const MAX_PICKS = 16;

type ServicePorts = { ports?: { nodePort?: number }[]; clusterIP?: string; clusterIPs?: string[] };

interface Candidate {
  key: string;
  exclude: (excluded: Exclusions) => void;
  /** kube's error when the client asked for this very value. */
  requestedError?: ReturnType<typeof ipTakenError>;
}

export function reservationHook(storage: Storage, allocator: ServiceAllocator, releases: PendingReleases) {
  return async (write: HookedWrite): Promise<UndoReservation> => {
    const allocatorKey = `${write.namespace}/${String(write.object.metadata.name)}`;
    const owner = ownerOf(write.namespace, write.object);
    // Creating a Service that exists is a 409, not a conflict with its own reservations.
    if (write.operation === "create" && (await storage.get(objectKey(write.type, write.namespace, owner.name)))) {
      throw newAlreadyExists({ group: write.type.group, resource: write.type.resource }, owner.name);
    }
    const requested = structuredClone((write.object.spec ?? {}) as ServicePorts);
    const excluded: Exclusions = { ips: new Set(), ports: new Set() };
    for (let pick = 0; pick < MAX_PICKS; pick++) {
      write.object.spec = structuredClone(requested);
      allocator.allocate(allocatorKey, write.object, write.oldObject, excluded);
      const candidates = candidatesOf(newlyHeld(write.object, write.oldObject), requested);
      await releases.settled(candidates.map((c) => c.key));
      const outcome = write.dryRun ? await checkFree(storage, candidates, owner.uid) : await claimAll(storage, candidates, owner);
      if ("taken" in outcome) {
        allocator.release(allocatorKey);
        if (outcome.taken.requestedError) throw newInvalid({ group: "", kind: "Service" }, owner.name, [outcome.taken.requestedError]);
        outcome.taken.exclude(excluded);
        continue;
      }
      return () => {
        allocator.release(allocatorKey);
        for (const kv of outcome.created) releases.track(kv.key, releaseReservation(storage, kv.key, owner.uid, kv));
      };
    }
    throw newInternalError("failed to reserve the Service's cluster IP and node ports: too many conflicts");
  };
}

/** What `service` holds that `old` did not: the values that need a reservation key of their own. */
function newlyHeld(service: KubeObject, old: KubeObject | null): Holdings {
  const now = holdingsOf(service);
  const before = old ? holdingsOf(old) : { ips: [], ports: [] };
  return { ips: now.ips.filter((ip) => !before.ips.includes(ip)), ports: now.ports.filter((port) => !before.ports.includes(port)) };
}

function candidatesOf(held: Holdings, requested: ServicePorts): Candidate[] {
  const requestedIPs = requested.clusterIPs ?? (requested.clusterIP ? [requested.clusterIP] : []);
  const requestedPorts = (requested.ports ?? []).map((p) => p.nodePort ?? 0);
  return [
    ...held.ips.map((ip) => ({
      key: ipReservationKey(ip),
      exclude: (excluded: Exclusions) => void excluded.ips.add(ip),
      requestedError: requestedIPs.includes(ip) ? ipTakenError(ip) : undefined,
    })),
    ...held.ports.map((port) => ({
      key: portReservationKey(port),
      exclude: (excluded: Exclusions) => void excluded.ports.add(port),
      requestedError: requestedPorts.includes(port) ? portTakenError(requestedPorts.indexOf(port), port) : undefined,
    })),
  ];
}

type Outcome = { created: KeyValue[] } | { taken: Candidate };

async function claimAll(storage: Storage, candidates: Candidate[], owner: ReturnType<typeof ownerOf>): Promise<Outcome> {
  const created: KeyValue[] = [];
  for (const candidate of candidates) {
    const claim = await claimReservation(storage, candidate.key, owner);
    if (claim === "held") continue;
    if ("created" in claim) {
      created.push(claim.created);
      continue;
    }
    await Promise.all(created.map((kv) => releaseReservation(storage, kv.key, owner.uid, kv)));
    return { taken: candidate };
  }
  return { created };
}

async function checkFree(storage: Storage, candidates: Candidate[], uid: string): Promise<Outcome> {
  for (const candidate of candidates) {
    if (await heldByOther(storage, candidate.key, uid)) return { taken: candidate };
  }
  return { created: [] };
}
