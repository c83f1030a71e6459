/**
 * Reservation keys: every cluster IP and node port a Service holds is also a storage key, made with the storage's
 * create op, so two processes sharing one store cannot both take a value (kube persists its allocations likewise).
 * The value names the owner, so releases and repairs only ever remove a key its owner no longer needs.
 */
import type { KubeObject } from "../../api/types.ts";
import { isStorageError, type KeyValue, type Storage } from "../../storage/storage.ts";
import { logger } from "../../log/mod.ts";

const log = logger("service-allocation");

/** A leading "/_" cannot collide with a collection prefix (`/core/...`, `/<group>/...`). */
export const RESERVATIONS_PREFIX = "/_allocations/";

export interface Holdings {
  ips: string[];
  ports: number[];
}

export interface ReservationOwner {
  namespace: string;
  name: string;
  uid: string;
  /** Milliseconds since the epoch; repairs leave young keys alone since their Service may be about to commit. */
  reservedAt?: number;
}

export const ipReservationKey = (ip: string) => `${RESERVATIONS_PREFIX}clusterips/${ip}`;
export const portReservationKey = (port: number) => `${RESERVATIONS_PREFIX}nodeports/${port}`;

export const reservationKeysOf = (holdings: Holdings) => [...holdings.ips.map(ipReservationKey), ...holdings.ports.map(portReservationKey)];

export const ownerOf = (namespace: string, service: KubeObject): ReservationOwner => ({
  namespace,
  name: String(service.metadata.name ?? ""),
  uid: String(service.metadata.uid ?? ""),
});

export function parseOwner(kv: KeyValue): ReservationOwner | undefined {
  try {
    return JSON.parse(kv.value) as ReservationOwner;
  } catch {
    return undefined;
  }
}

/** Creates the key for `owner`: the created key, "held" if the owner already has it, or the other owner's key. */
export async function claimReservation(
  storage: Storage,
  key: string,
  owner: ReservationOwner,
): Promise<{ created: KeyValue } | "held" | { takenBy: KeyValue }> {
  try {
    return { created: await storage.write({ op: "create", key, value: JSON.stringify({ ...owner, reservedAt: Date.now() }) }) };
  } catch (error) {
    if (!isStorageError(error, "KeyExists") || !error.current) throw error;
    return parseOwner(error.current)?.uid === owner.uid ? "held" : { takenBy: error.current };
  }
}

/** Whether a fresh read shows the key held by someone other than `uid` (dry runs check without writing). */
export async function heldByOther(storage: Storage, key: string, uid: string): Promise<boolean> {
  const kv = await storage.get(key);
  return kv !== null && parseOwner(kv)?.uid !== uid;
}

/** Deletes the key if `uid` owns it, at the revision read, so a key someone else has claimed since is never removed. */
export async function releaseReservation(storage: Storage, key: string, uid: string, known?: KeyValue): Promise<void> {
  const kv = known ?? (await storage.get(key));
  if (!kv || parseOwner(kv)?.uid !== uid) return;
  try {
    await storage.write({ op: "delete", key, expectedRevision: kv.modRevision });
  } catch (error) {
    if (!isStorageError(error, "NotFound") && !isStorageError(error, "Conflict")) throw error;
  }
}

/** Releases this process has started; a reservation of the same value waits for them (delete, then re-create). */
export class PendingReleases {
  readonly #inFlight = new Map<string, Promise<void>>();

  track(key: string, release: Promise<void>): void {
    const settled = release.catch((error) => log.error(`releasing ${key} failed`, error));
    const done = settled.finally(() => {
      if (this.#inFlight.get(key) === done) this.#inFlight.delete(key);
    });
    this.#inFlight.set(key, done);
  }

  async settled(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => this.#inFlight.get(key)));
  }
}
