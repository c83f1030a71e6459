import { expect, test } from "bun:test";
import { localZoneIsUtc, tzifIsUtc } from "./local-zone.ts";

interface Zone {
  version: 0 | 2;
  /** UT offsets of the time types, in seconds. */
  offsets: number[];
  transitions: number;
  footer?: string;
}

/** A TZif file (RFC 8536) with a version 1 data block and, from version 2, a second one with 64-bit times. */
function tzif(zone: Zone): Uint8Array {
  const block = (timeBytes: number) => {
    const names = new TextEncoder().encode("UTC\0");
    const header = new Uint8Array(44);
    header.set(new TextEncoder().encode("TZif"));
    header[4] = zone.version === 0 ? 0 : 0x32;
    const view = new DataView(header.buffer);
    [0, 0, 0, zone.transitions, zone.offsets.length, names.length].forEach((count, i) => view.setUint32(20 + 4 * i, count));
    const times = new Uint8Array(zone.transitions * (timeBytes + 1));
    const types = new Uint8Array(zone.offsets.length * 6);
    zone.offsets.forEach((offset, i) => new DataView(types.buffer).setInt32(i * 6, offset));
    return [header, times, types, names];
  };
  const parts = zone.version === 0 ? block(4) : [...block(4), ...block(8), new TextEncoder().encode(`\n${zone.footer ?? ""}\n`)];
  const file = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    file.set(part, at);
    at += part.length;
  }
  return file;
}

test("tzifIsUtc: a file of one zero offset and no transitions is UTC, with or without a zero-offset footer rule", () => {
  expect(tzifIsUtc(tzif({ version: 2, offsets: [0], transitions: 0, footer: "UTC0" }))).toBe(true);
  expect(tzifIsUtc(tzif({ version: 2, offsets: [0], transitions: 0, footer: "<+00>0" }))).toBe(true);
  expect(tzifIsUtc(tzif({ version: 2, offsets: [0], transitions: 0 }))).toBe(true);
  expect(tzifIsUtc(tzif({ version: 0, offsets: [0], transitions: 0 }))).toBe(true);
});

test("tzifIsUtc: transitions, another offset, a daylight-saving footer or a file that is not TZif are not UTC", () => {
  expect(tzifIsUtc(tzif({ version: 2, offsets: [3600, 7200], transitions: 1, footer: "CET-1CEST,M3.5.0,M10.5.0/3" }))).toBe(false);
  expect(tzifIsUtc(tzif({ version: 2, offsets: [3600], transitions: 0, footer: "<+01>-1" }))).toBe(false);
  expect(tzifIsUtc(tzif({ version: 2, offsets: [0], transitions: 0, footer: "GMT0BST,M3.5.0/1,M10.5.0" }))).toBe(false);
  expect(tzifIsUtc(new TextEncoder().encode("not a zone file, but long enough to have a header's length of bytes"))).toBe(false);
  expect(tzifIsUtc(tzif({ version: 2, offsets: [0], transitions: 0 }).subarray(0, 50))).toBe(false);
});

test("localZoneIsUtc: $TZ decides when set (only names of UTC count), /etc/localtime otherwise, and an unreadable one is not UTC", () => {
  const never = () => {
    throw new Error("read /etc/localtime although $TZ is set");
  };
  for (const tz of ["UTC", ":UTC", "Etc/UTC", "Universal", "Zulu"]) expect(localZoneIsUtc(tz, never)).toBe(true);
  for (const tz of ["Europe/Berlin", "Asia/Kolkata", "", "CET-1CEST"]) expect(localZoneIsUtc(tz, never)).toBe(false);
  expect(localZoneIsUtc(undefined, () => tzif({ version: 2, offsets: [0], transitions: 0, footer: "UTC0" }))).toBe(true);
  expect(localZoneIsUtc(undefined, () => tzif({ version: 2, offsets: [3600, 7200], transitions: 1 }))).toBe(false);
  expect(localZoneIsUtc(undefined, () => {
    throw Object.assign(new Error("ENOENT"), { code: "ENOENT" });
  })).toBe(false);
});
