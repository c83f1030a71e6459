/**
 * The two stored ranges of Service allocation, the conversions between values and their offsets, and the releases
 * in flight: taking a value this process is still freeing waits for the free to land first.
 */
import type { Storage } from "../../storage/storage.ts";
import { logger } from "../../log/mod.ts";
import type { Holdings } from "./allocator.ts";
import { formatIPv4, type IPRange, offsetOf, type PortRange } from "./ip-range.ts";
import { type AllocationRange, nodePortsRange, releaseOffsets, serviceIPsRange } from "./range-allocation.ts";

const log = logger("service-allocation");

export interface AllocationRanges {
  ips: AllocationRange;
  ports: AllocationRange;
  ipOffset(ip: string): number;
  ipAt(offset: number): string;
  portOffset(port: number): number;
  portAt(offset: number): number;
}

export function allocationRanges(ipRange: IPRange, portRange: PortRange): AllocationRanges {
  return {
    ips: serviceIPsRange(ipRange),
    ports: nodePortsRange(portRange),
    // The allocator only hands out values inside the ranges; a value outside (data from before a range change)
    // maps to -1, which no bitmap holds.
    ipOffset: (ip) => offsetOf(ipRange, ip) ?? -1,
    ipAt: (offset) => formatIPv4(ipRange.first + offset),
    portOffset: (port) => (port >= portRange.base && port < portRange.base + portRange.size ? port - portRange.base : -1),
    portAt: (offset) => portRange.base + offset,
  };
}

/** Frees what a committed write gave up, `since` being that write's revision. */
export function releaseHoldings(storage: Storage, ranges: AllocationRanges, given: Holdings, since: number): Promise<unknown> {
  const ips = given.ips.map(ranges.ipOffset).filter((offset) => offset >= 0);
  const ports = given.ports.map(ranges.portOffset).filter((offset) => offset >= 0);
  return Promise.all([
    ips.length > 0 ? releaseOffsets(storage, ranges.ips, ips, since) : undefined,
    ports.length > 0 ? releaseOffsets(storage, ranges.ports, ports, since) : undefined,
  ]);
}

const valueKeys = (holdings: Holdings) => [...holdings.ips.map((ip) => `ip/${ip}`), ...holdings.ports.map((port) => `port/${port}`)];

export class PendingReleases {
  readonly #inFlight = new Map<string, Promise<void>>();

  track(holdings: Holdings, release: Promise<unknown>): void {
    const settled = release.then(() => undefined, (error) => log.error("releasing Service allocations failed", error));
    for (const key of valueKeys(holdings)) {
      const done = settled.finally(() => {
        if (this.#inFlight.get(key) === done) this.#inFlight.delete(key);
      });
      this.#inFlight.set(key, done);
    }
  }

  async settled(holdings: Holdings): Promise<void> {
    await Promise.all(valueKeys(holdings).map((key) => this.#inFlight.get(key)));
  }
}
