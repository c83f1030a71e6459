/**
 * The repair pass (kube's ipallocator/portallocator controller Repair.runOnce): rebuilds each range's bitmap from
 * the stored Services. A value a Service holds but the bitmap lacks is taken at once; a value the bitmap holds that
 * no Service does is freed only after it has been seen leaked by numRepairsBeforeLeakCleanup (3) passes in a row,
 * since the Service write that took it may still be on its way. When no write can be on its way (the server's first pass
 * on a store no other process writes), a leaked value is what a process stopped between its claim and its Service's
 * commit left behind, and it is freed at once: else the kubernetes Service's own IP, leaked by a kill during the
 * first start, would fail every later start.
 */
import { decodeStored } from "../codec.ts";
import { isStorageError, type KeyValue, type Storage } from "../../storage/storage.ts";
import { AllocationBitmap } from "./bitmap.ts";
import { holdingsOf } from "./allocator.ts";
import { type AllocationRange, decodeRangeAllocation, encodeRangeAllocation } from "./range-allocation.ts";
import type { AllocationRanges } from "./releases.ts";

/** kube's numRepairsBeforeLeakCleanup. */
export const REPAIRS_BEFORE_LEAK_CLEANUP = 3;

/** Keys of the earlier reservation layout (one key per value), replaced by the range allocations. */
const LEGACY_RESERVATIONS_PREFIX = "/_allocations/";

export interface RepairOptions {
  /** No Service write is in flight anywhere: leaked values are freed on this pass. */
  noWritesInFlight?: boolean;
}

export interface RepairResult {
  /** Values taken because a stored Service holds them. */
  added: string[];
  /** Leaked values freed. */
  removed: string[];
}

export class AllocationRepair {
  readonly #storage: Storage;
  readonly #ranges: AllocationRanges;
  readonly #servicesPrefix: string;
  /** Per range key: leaked offset → passes it has been seen leaked in. */
  readonly #leaks = new Map<string, Map<number, number>>();

  constructor(storage: Storage, ranges: AllocationRanges, servicesPrefix: string) {
    this.#storage = storage;
    this.#ranges = ranges;
    this.#servicesPrefix = servicesPrefix;
  }

  async runOnce(options: RepairOptions = {}): Promise<RepairResult> {
    const passesBeforeCleanup = options.noWritesInFlight ? 1 : REPAIRS_BEFORE_LEAK_CLEANUP;
    // The allocations first, the Services second (as kube): a value taken in between is unseen or its Service is seen.
    const [ips, ports] = [await this.#storage.get(this.#ranges.ips.key), await this.#storage.get(this.#ranges.ports.key)];
    const services = await this.#storage.range(this.#servicesPrefix);
    const heldIPs = new Set<number>();
    const heldPorts = new Set<number>();
    for (const kv of services.items) {
      const holdings = holdingsOf(decodeStored(kv));
      for (const ip of holdings.ips) heldIPs.add(this.#ranges.ipOffset(ip));
      for (const port of holdings.ports) heldPorts.add(this.#ranges.portOffset(port));
    }
    const ipResult = await this.#repair(this.#ranges.ips, ips, heldIPs, passesBeforeCleanup);
    const portResult = await this.#repair(this.#ranges.ports, ports, heldPorts, passesBeforeCleanup);
    await this.#dropLegacyReservations();
    return {
      added: [...ipResult.added.map(this.#ranges.ipAt), ...portResult.added.map((o) => String(this.#ranges.portAt(o)))],
      removed: [...ipResult.removed.map(this.#ranges.ipAt), ...portResult.removed.map((o) => String(this.#ranges.portAt(o)))],
    };
  }

  async #repair(
    range: AllocationRange,
    kv: KeyValue | null,
    held: Set<number>,
    passesBeforeCleanup: number,
  ): Promise<{ added: number[]; removed: number[] }> {
    held.delete(-1);
    const leaks = this.#leaks.get(range.key) ?? new Map<number, number>();
    this.#leaks.set(range.key, leaks);
    // A bitmap of another range (the flag changed) is rebuilt from the Services alone.
    const stored = decodeRangeAllocation(range.spec, kv) ?? AllocationBitmap.empty();
    const rebuilt = AllocationBitmap.empty();
    const result = { added: [] as number[], removed: [] as number[] };
    for (const offset of held) {
      rebuilt.set(offset);
      if (!stored.has(offset)) result.added.push(offset);
    }
    const stillLeaked = new Set<number>();
    for (const offset of stored.offsets()) {
      if (held.has(offset)) continue;
      const seen = (leaks.get(offset) ?? 0) + 1;
      if (seen >= passesBeforeCleanup) {
        result.removed.push(offset);
        continue;
      }
      leaks.set(offset, seen);
      stillLeaked.add(offset);
      rebuilt.set(offset);
    }
    for (const offset of leaks.keys()) if (!stillLeaked.has(offset)) leaks.delete(offset);
    const unchanged = kv !== null && kv.value === encodeRangeAllocation(range.spec, stored) &&
      result.added.length + result.removed.length === 0;
    if (unchanged) return result;
    const value = encodeRangeAllocation(range.spec, rebuilt);
    try {
      // Only over the bitmap read before the Services: one changed since may hold values of Services not yet seen.
      await this.#storage.write(
        kv ? { op: "update", key: range.key, value, expectedRevision: kv.modRevision } : { op: "create", key: range.key, value },
      );
    } catch (error) {
      if (!isStorageError(error, "Conflict") && !isStorageError(error, "KeyExists")) throw error;
      for (const offset of result.removed) leaks.set(offset, REPAIRS_BEFORE_LEAK_CLEANUP - 1);
      return { added: [], removed: [] };
    }
    return result;
  }

  /** Databases written before the range allocations kept one key per value; the bitmaps rebuilt above replace them. */
  async #dropLegacyReservations(): Promise<void> {
    for (const kv of (await this.#storage.range(LEGACY_RESERVATIONS_PREFIX)).items) {
      await this.#storage.write({ op: "delete", key: kv.key, expectedRevision: kv.modRevision }).catch(() => undefined);
    }
  }
}
