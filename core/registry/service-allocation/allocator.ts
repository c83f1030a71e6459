/**
 * Service cluster IPs and node ports (kube's service REST allocator, alloc.go). This in-memory view, rebuilt from
 * the stored Services at start and following each commit, picks candidates fast; the reservation keys
 * (reservation-keys.ts) are the authority across processes. A write being prepared holds a reservation until its
 * commit (or failure) replaces it.
 */
import { goStringSlice } from "../../api/go-text.ts";
import { type FieldError, newInvalid } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { formatIPv4, type IPRange, offsetOf, type PortRange } from "./ip-range.ts";

/** The cluster IPs and node ports a Service holds. */
export interface Holdings {
  ips: string[];
  ports: number[];
}

/** Values found taken elsewhere (another process's reservation keys) that this allocation must not pick. */
export interface Exclusions {
  ips: Set<string>;
  ports: Set<number>;
}

const NO_EXCLUSIONS: Exclusions = { ips: new Set(), ports: new Set() };

export const ipTakenError = (ip: string): FieldError => ipError(ip, "provided IP is already allocated");
export const portTakenError = (index: number, port: number): FieldError => ({
  type: "FieldValueInvalid",
  field: `spec.ports[${index}].nodePort`,
  value: port,
  detail: "provided port is already allocated",
});
const ipError = (ip: string, why: string): FieldError => ({
  type: "FieldValueInvalid",
  field: "spec.clusterIPs",
  value: [ip],
  valueText: goStringSlice([ip]),
  detail: `failed to allocate IP ${ip}: ${why}`,
});

type ServiceSpec = {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  ports?: { nodePort?: number; port?: number; protocol?: string; name?: string }[];
};

const specOf = (service: KubeObject) => (service.spec ?? {}) as ServiceSpec;
const exposesNodePorts = (spec: ServiceSpec) => spec.type === "NodePort" || spec.type === "LoadBalancer";

export function holdingsOf(service: KubeObject): Holdings {
  const spec = specOf(service);
  if (spec.type === "ExternalName") return { ips: [], ports: [] };
  const ips = (spec.clusterIPs ?? (spec.clusterIP ? [spec.clusterIP] : [])).filter((ip) => ip !== "None" && ip !== "");
  const ports = exposesNodePorts(spec) ? (spec.ports ?? []).map((p) => p.nodePort ?? 0).filter((p) => p > 0) : [];
  return { ips, ports };
}

export class ServiceAllocator {
  readonly #ipRange: IPRange;
  readonly #portRange: PortRange;
  readonly #committed = new Map<string, Holdings>();
  readonly #pending = new Map<string, Holdings>();

  constructor(ipRange: IPRange, portRange: PortRange) {
    this.#ipRange = ipRange;
    this.#portRange = portRange;
  }

  /** Records what a committed Service holds (undefined: it was deleted); returns what it held before and no longer does. */
  committed(key: string, service: KubeObject | undefined): Holdings {
    const before = this.#committed.get(key) ?? { ips: [], ports: [] };
    const now = service ? holdingsOf(service) : { ips: [], ports: [] };
    this.#pending.delete(key);
    if (service) this.#committed.set(key, now);
    else this.#committed.delete(key);
    return { ips: before.ips.filter((ip) => !now.ips.includes(ip)), ports: before.ports.filter((port) => !now.ports.includes(port)) };
  }

  /** Drops a reservation whose write did not happen. */
  release(key: string): void {
    this.#pending.delete(key);
  }

  /**
   * Fills in the Service's cluster IPs, IP families and node ports (keeping those `old` had), checking requested
   * ones, and reserves them for `key` until committed() or release(). Throws kube's 422 on a conflict.
   */
  allocate(key: string, service: KubeObject, old: KubeObject | null, excluded: Exclusions = NO_EXCLUSIONS): void {
    const spec = (service.spec ??= {}) as ServiceSpec;
    const errors: FieldError[] = [];
    this.#fillClusterIPs(key, spec, old ? specOf(old) : undefined, errors, excluded);
    this.#fillNodePorts(key, spec, old ? specOf(old) : undefined, errors, excluded);
    if (errors.length > 0) throw newInvalid({ group: "", kind: "Service" }, String(service.metadata.name ?? ""), errors);
    this.#pending.set(key, holdingsOf(service));
  }

  #taken(key: string, excluded: Exclusions): Exclusions {
    const ips = new Set(excluded.ips);
    const ports = new Set(excluded.ports);
    for (const holdings of [this.#committed, this.#pending]) {
      for (const [owner, held] of holdings) {
        if (owner === key) continue;
        for (const ip of held.ips) ips.add(ip);
        for (const port of held.ports) ports.add(port);
      }
    }
    return { ips, ports };
  }

  #fillClusterIPs(key: string, spec: ServiceSpec, old: ServiceSpec | undefined, errors: FieldError[], excluded: Exclusions): void {
    if (spec.type === "ExternalName") {
      delete spec.clusterIP;
      delete spec.clusterIPs;
      return;
    }
    const kept = old && old.type !== "ExternalName" ? old.clusterIPs ?? (old.clusterIP ? [old.clusterIP] : undefined) : undefined;
    const requested = spec.clusterIPs?.length ? spec.clusterIPs : spec.clusterIP ? [spec.clusterIP] : kept;
    spec.ipFamilies = ["IPv4"];
    spec.ipFamilyPolicy ??= "SingleStack";
    let ip = requested?.[0];
    if (ip === undefined || ip === "") ip = this.#dynamicIP(key, errors, excluded);
    else if (ip !== "None" && ip !== kept?.[0]) this.#checkRequestedIP(key, ip, errors, excluded);
    if (ip === undefined) return;
    spec.clusterIP = ip;
    spec.clusterIPs = [ip];
  }

  #checkRequestedIP(key: string, ip: string, errors: FieldError[], excluded: Exclusions): void {
    if (offsetOf(this.#ipRange, ip) === undefined) {
      errors.push(ipError(ip, `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${this.#ipRange.cidr}`));
    } else if (this.#taken(key, excluded).ips.has(ip)) errors.push(ipTakenError(ip));
  }

  /** A random free address of the upper band, else of the lower band (kube's static sub-range order). */
  #dynamicIP(key: string, errors: FieldError[], excluded: Exclusions): string | undefined {
    const taken = this.#taken(key, excluded).ips;
    const { first, size, lowerBand } = this.#ipRange;
    const band = Math.min(lowerBand, size);
    const pick = (from: number, to: number) => randomFree(from, to, (offset) => !taken.has(formatIPv4(first + offset)));
    const offset = pick(band, size) ?? pick(0, band);
    if (offset !== undefined) return formatIPv4(first + offset);
    errors.push({
      type: "FieldValueInvalid",
      field: "spec.clusterIPs",
      value: [],
      valueText: "[]string(nil)",
      detail: "failed to allocate a serviceIP: range is full",
    });
    return undefined;
  }

  #fillNodePorts(key: string, spec: ServiceSpec, old: ServiceSpec | undefined, errors: FieldError[], excluded: Exclusions): void {
    const ports = spec.ports ?? [];
    if (!exposesNodePorts(spec)) {
      for (const port of ports) delete port.nodePort;
      return;
    }
    const taken = this.#taken(key, excluded).ports;
    const keptPorts = new Set(old && exposesNodePorts(old) ? (old.ports ?? []).map((p) => p.nodePort ?? 0) : []);
    const { base, size, text } = this.#portRange;
    ports.forEach((port, i) => {
      // kube keeps a port's node port across updates that leave it out (patchAllocatedValues).
      port.nodePort ||= old?.ports?.find((p) => p.port === port.port && (p.protocol ?? "TCP") === (port.protocol ?? "TCP"))?.nodePort;
      const field = `spec.ports[${i}].nodePort`;
      if (port.nodePort) {
        if (keptPorts.has(port.nodePort)) return;
        if (port.nodePort < base || port.nodePort >= base + size) {
          errors.push({
            type: "FieldValueInvalid",
            field,
            value: port.nodePort,
            detail: `provided port is not in the valid range. The range of valid ports is ${text}`,
          });
        } else if (taken.has(port.nodePort)) {
          errors.push(portTakenError(i, port.nodePort));
        }
        taken.add(port.nodePort);
        return;
      }
      const offset = randomFree(0, size, (o) => !taken.has(base + o));
      if (offset === undefined) {
        errors.push({ type: "FieldValueInvalid", field, value: 0, detail: "failed to allocate a nodePort: range is full" });
        return;
      }
      port.nodePort = base + offset;
      taken.add(port.nodePort);
    });
  }
}

/** A random offset in [from, to) that `free` accepts: a random start, then a scan (kube's random-scan strategy). */
function randomFree(from: number, to: number, free: (offset: number) => boolean): number | undefined {
  const count = to - from;
  if (count <= 0) return undefined;
  const start = Math.floor(Math.random() * count);
  for (let i = 0; i < count; i++) {
    const offset = from + ((start + i) % count);
    if (free(offset)) return offset;
  }
  return undefined;
}
