/**
 * An IPv4 service CIDR as kube's ipallocator sees it: the network and broadcast addresses are never handed out,
 * and with ServiceIPStaticSubrange (GA in 1.26) the first min(max(16, size/16), 256) addresses form the lower
 * band kept for requested IPs, while dynamic allocation takes from the upper band first.
 */

export interface IPRange {
  cidr: string;
  /** First usable address as a number. */
  first: number;
  /** Usable addresses. */
  size: number;
  /** Addresses at the start of the range reserved for requested IPs. */
  lowerBand: number;
}

export function parseIPv4(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((acc, p) => acc * 256 + Number(p), 0);
}

export function formatIPv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}

export function parseServiceCIDR(cidr: string): IPRange {
  const [address, bitsText] = cidr.split("/");
  const base = parseIPv4(address ?? "");
  const bits = Number(bitsText);
  if (base === undefined || !Number.isInteger(bits) || bits < 8 || bits > 30) {
    throw new Error(`--service-cluster-ip-range: ${JSON.stringify(cidr)} is not an IPv4 CIDR between /8 and /30`);
  }
  const cidrSize = 2 ** (32 - bits);
  const network = base - (base % cidrSize);
  return {
    cidr: `${formatIPv4(network)}/${bits}`,
    first: network + 1,
    size: cidrSize - 2,
    lowerBand: Math.min(Math.max(16, cidrSize / 16), 256),
  };
}

/** Offset of `ip` inside the range's usable addresses, or undefined when outside. */
export function offsetOf(range: IPRange, ip: string): number | undefined {
  const value = parseIPv4(ip);
  if (value === undefined) return undefined;
  const offset = value - range.first;
  return offset >= 0 && offset < range.size ? offset : undefined;
}

export interface PortRange {
  base: number;
  size: number;
  text: string;
}

export function parsePortRange(text: string): PortRange {
  const match = /^(\d+)-(\d+)$/.exec(text.trim()) ?? /^(\d+)\+(\d+)$/.exec(text.trim());
  if (!match) throw new Error(`--service-node-port-range: ${JSON.stringify(text)} is not <first>-<last>`);
  const base = Number(match[1]);
  const last = text.includes("+") ? base + Number(match[2]) - 1 : Number(match[2]);
  if (last < base || last > 65535) throw new Error(`--service-node-port-range: ${JSON.stringify(text)} is not a valid port range`);
  return { base, size: last - base + 1, text: `${base}-${last}` };
}
