/**
 * The stored allocation of a range (kube's allocator/storage Etcd): one RangeAllocation object per range — the
 * range's text and a bitmap of the taken offsets — at kube's keys (`<prefix>/ranges/serviceips`,
 * `<prefix>/ranges/servicenodeports`), changed only by compare-and-swap, so any number of servers sharing a store
 * never hand out one value twice, and a kube-apiserver on the same etcd reads the same allocations.
 */
import { Buffer } from "node:buffer";
import { isStorageError, type KeyValue, type Storage } from "../../storage/storage.ts";
import { newInternalError } from "../../api/errors.ts";
import { AllocationBitmap } from "./bitmap.ts";
import type { IPRange, PortRange } from "./ip-range.ts";

/** A leading "/_" cannot collide with a collection prefix (`/core/...`, `/<group>/...`). */
export const RANGES_PREFIX = "/_ranges/";

export interface AllocationRange {
  key: string;
  /** kube's rangeSpec: the CIDR of the service IPs, `<first>-<last>` of the node ports. */
  spec: string;
}

export const serviceIPsRange = (range: IPRange): AllocationRange => ({ key: `${RANGES_PREFIX}serviceips`, spec: range.cidr });
export const nodePortsRange = (range: PortRange): AllocationRange => ({ key: `${RANGES_PREFIX}servicenodeports`, spec: range.text });

const MAX_ATTEMPTS = 256;

/** kube's v1 RangeAllocation as its JSON serializer writes it (the object has no metadata of its own). */
export function encodeRangeAllocation(spec: string, bitmap: AllocationBitmap): string {
  const data = Buffer.from(bitmap.toKubeBytes()).toString("base64");
  return JSON.stringify({ kind: "RangeAllocation", apiVersion: "v1", metadata: { creationTimestamp: null }, range: spec, data });
}

/** The stored bitmap, or undefined when it was written for another range (kube's Restore refuses it). */
export function decodeRangeAllocation(spec: string, kv: KeyValue | null): AllocationBitmap | undefined {
  if (!kv) return AllocationBitmap.empty();
  const stored = JSON.parse(kv.value) as { range?: string; data?: string };
  if (stored.range !== spec) return undefined;
  return AllocationBitmap.fromKubeBytes(Buffer.from(stored.data ?? "", "base64"));
}

/** kube's Restore error, when the flag's range differs from the stored one and the repair pass has not rewritten it yet. */
function rangeMismatch(range: AllocationRange): Error {
  return newInternalError(`${range.key}: the provided range does not match the current range`);
}

/** Per store and range: the change in progress (kube's Etcd allocator holds a lock around each change). */
const inProgress = new WeakMap<Storage, Map<string, Promise<unknown>>>();

/** Runs the changes of one range in this process one at a time, so only other servers' changes can conflict. */
function oneAtATime<T>(storage: Storage, key: string, run: () => Promise<T>): Promise<T> {
  const ranges = inProgress.get(storage) ?? new Map<string, Promise<unknown>>();
  inProgress.set(storage, ranges);
  const result = (ranges.get(key) ?? Promise.resolve()).then(run);
  const tail = result.catch(() => undefined);
  ranges.set(key, tail);
  void tail.then(() => ranges.get(key) === tail && ranges.delete(key));
  return result;
}

/**
 * One compare-and-swap change of the stored bitmap (kube's Etcd.tryUpdate through GuaranteedUpdate): `change`
 * edits the bitmap and says whether to write it; another server's change makes it run again on the newer bitmap.
 */
function updateRange<T>(
  storage: Storage,
  range: AllocationRange,
  change: (bitmap: AllocationBitmap) => { write: boolean; answer: T } | Promise<{ write: boolean; answer: T }>,
): Promise<{ answer: T; revision?: number }> {
  return oneAtATime(storage, range.key, () => tryUpdate(storage, range, change));
}

async function tryUpdate<T>(
  storage: Storage,
  range: AllocationRange,
  change: (bitmap: AllocationBitmap) => { write: boolean; answer: T } | Promise<{ write: boolean; answer: T }>,
): Promise<{ answer: T; revision?: number }> {
  // A conflict carries the value that won (GuaranteedUpdate retries on it without reading again).
  let known: KeyValue | null | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const kv = known !== undefined ? known : await storage.get(range.key);
    known = undefined;
    const bitmap = decodeRangeAllocation(range.spec, kv);
    if (!bitmap) throw rangeMismatch(range);
    const { write, answer } = await change(bitmap);
    if (!write) return { answer };
    const value = encodeRangeAllocation(range.spec, bitmap);
    try {
      const written = kv
        ? await storage.write({ op: "update", key: range.key, value, expectedRevision: kv.modRevision })
        : await storage.write({ op: "create", key: range.key, value });
      return { answer, revision: written.modRevision };
    } catch (error) {
      if (!isStorageError(error, "Conflict") && !isStorageError(error, "KeyExists") && !isStorageError(error, "NotFound")) throw error;
      known = error.current;
      // Another server keeps winning: step aside for a random moment so the two do not collide again in lockstep.
      if (attempt >= 2) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(attempt, 20)));
    }
  }
  throw newInternalError(`${range.key}: too many concurrent changes of the allocation`);
}

/** Takes every offset or none: answers the first one already taken, or the revision that took them. */
export async function claimOffsets(
  storage: Storage,
  range: AllocationRange,
  offsets: number[],
): Promise<{ taken?: number; revision?: number }> {
  // Most Service writes take nothing new (labels, status): no read of the range, no wait behind its other changes.
  if (offsets.length === 0) return {};
  const { answer: taken, revision } = await updateRange(storage, range, (bitmap) => {
    const taken = offsets.find((offset) => bitmap.has(offset));
    if (taken === undefined) { for (const offset of offsets) bitmap.set(offset); }
    return { write: taken === undefined, answer: taken };
  });
  return { taken, revision };
}

/** Whether any of the offsets is taken now (a dry run checks without writing). */
export async function firstTaken(storage: Storage, range: AllocationRange, offsets: number[]): Promise<number | undefined> {
  if (offsets.length === 0) return undefined;
  const bitmap = decodeRangeAllocation(range.spec, await storage.get(range.key));
  if (!bitmap) throw rangeMismatch(range);
  return offsets.find((offset) => bitmap.has(offset));
}

/**
 * Frees offsets that were taken at `since` (a claim's revision, or the revision of the write that gave them up).
 * Every server following the Services frees what a commit gave up, so an offset some change after `since` already
 * freed is left alone: it may have been taken again by another Service since.
 */
export function releaseOffsets(storage: Storage, range: AllocationRange, offsets: number[], since: number): Promise<unknown> {
  return updateRange(storage, range, async (bitmap) => {
    const freedSince = new Set<number>();
    for (const event of await storage.eventsSince(range.key, since)) {
      const after = event.type === "DELETED" ? AllocationBitmap.empty() : decodeRangeAllocation(range.spec, event.kv);
      for (const offset of offsets) if (!after?.has(offset)) freedSince.add(offset);
    }
    const toFree = offsets.filter((offset) => !freedSince.has(offset) && bitmap.has(offset));
    for (const offset of toFree) bitmap.clear(offset);
    return { write: toFree.length > 0, answer: toFree.length };
  });
}
