/**
 * The repair pass (kube's ipallocator/portallocator repair controllers): removes reservation keys no stored
 * Service holds (a crash between a reservation and its Service write leaks one, never double-allocates) and adds
 * the keys of stored Services that lack them (data written before reservation keys existed).
 */
import { decodeStored } from "../codec.ts";
import { isStorageError, type Storage } from "../../storage/storage.ts";
import { holdingsOf } from "./allocator.ts";
import {
  ownerOf,
  parseOwner,
  releaseReservation,
  reservationKeysOf,
  type ReservationOwner,
  RESERVATIONS_PREFIX,
} from "./reservation-keys.ts";

/** Keys younger than this may belong to a Service write still in flight. */
export const LEAK_GRACE_MS = 30_000;

export interface RepairResult {
  removed: string[];
  added: string[];
}

export async function repairReservations(
  storage: Storage,
  servicesPrefix: string,
  options: { graceMs?: number } = {},
): Promise<RepairResult> {
  const graceMs = options.graceMs ?? LEAK_GRACE_MS;
  // Keys first, Services second: a reservation made in between is either unseen or its Service is seen.
  const reservations = await storage.range(RESERVATIONS_PREFIX);
  const services = await storage.range(servicesPrefix);
  const wanted = new Map<string, ReservationOwner>();
  for (const kv of services.items) {
    const service = decodeStored(kv);
    const owner = ownerOf(String(service.metadata.namespace ?? ""), service);
    for (const key of reservationKeysOf(holdingsOf(service))) wanted.set(key, owner);
  }
  const result: RepairResult = { removed: [], added: [] };
  for (const kv of reservations.items) {
    const owner = parseOwner(kv);
    if (!owner) continue;
    if (wanted.get(kv.key)?.uid === owner.uid) {
      wanted.delete(kv.key);
      continue;
    }
    if (Date.now() - (owner.reservedAt ?? 0) < graceMs) continue;
    await releaseReservation(storage, kv.key, owner.uid, kv);
    result.removed.push(kv.key);
  }
  for (const [key, owner] of wanted) {
    try {
      await storage.write({ op: "create", key, value: JSON.stringify({ ...owner, reservedAt: Date.now() }) });
      result.added.push(key);
    } catch (error) {
      if (!isStorageError(error, "KeyExists")) throw error;
    }
  }
  return result;
}
