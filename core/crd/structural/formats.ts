/**
 * The string formats kube-apiserver checks in custom resources (apiextensions-apiserver's supported formats,
 * kube-openapi strfmt); any other format is documentation only.
 */
import { isIP } from "node:net";

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MAC = /^([0-9a-f]{2}[:-]){5}[0-9a-f]{2}$/i;
const HOSTNAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*$/i;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const DURATION = /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h|d|w))+$/;

function isCIDR(value: string): boolean {
  const [address, bits, extra] = value.split("/");
  if (extra !== undefined || bits === undefined || !/^\d+$/.test(bits)) return false;
  const family = isIP(address);
  return family !== 0 && Number(bits) <= (family === 4 ? 32 : 128);
}

const CHECKS: Record<string, (value: string) => boolean> = {
  uuid: (v) => UUID.test(v),
  date: (v) => DATE.test(v) && !Number.isNaN(Date.parse(v)),
  "date-time": (v) => DATE_TIME.test(v) && !Number.isNaN(Date.parse(v.replace(" ", "T"))),
  byte: (v) => v.length % 4 === 0 && BASE64.test(v),
  ipv4: (v) => isIP(v) === 4,
  ipv6: (v) => isIP(v) === 6,
  cidr: isCIDR,
  mac: (v) => MAC.test(v),
  hostname: (v) => v.length <= 255 && HOSTNAME.test(v),
  email: (v) => EMAIL.test(v),
  duration: (v) => DURATION.test(v),
};

/** Whether `value` satisfies `format`; unknown formats accept anything. */
export function matchesFormat(format: string, value: string): boolean {
  return CHECKS[format]?.(value) ?? true;
}
