/**
 * Turns the store's committed events for one collection into kube watch events, applying the selection the
 * way kube's watch filter does: an object moving into the selection is ADDED, out of it DELETED.
 */
import type { KubeObject } from "../api/types.ts";
import type { KeyValue, StorageEvent } from "../storage/storage.ts";
import { decodeStored } from "./codec.ts";

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED";

export interface WatchEvent {
  type: WatchEventType;
  object: KubeObject;
}

/** `decode` reads a stored value as the watched version answers it. */
export function toWatchEvent(
  event: StorageEvent,
  matches?: (obj: KubeObject) => boolean,
  decode: (kv: KeyValue) => KubeObject = decodeStored,
): WatchEvent | null {
  const object = decode(event.kv);
  if (!matches) return { type: event.type, object };
  if (event.type === "ADDED") return matches(object) ? { type: "ADDED", object } : null;
  if (event.type === "DELETED") return matches(object) ? { type: "DELETED", object } : null;
  const now = matches(object);
  const before = event.prev ? matches(decode(event.prev)) : false;
  if (now && before) return { type: "MODIFIED", object };
  if (now) return { type: "ADDED", object };
  if (before) return { type: "DELETED", object };
  return null;
}
