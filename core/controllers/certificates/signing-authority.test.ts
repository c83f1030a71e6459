import { expect, test } from "bun:test";
import { certificateTtlMs, validity } from "./signing-authority.ts";

const HOUR = 3_600_000;

test("validity() backdates the start 5 minutes and the end only for certificates of 8h or more (PermissiveSigningPolicy)", () => {
  const now = Date.UTC(2026, 0, 1);
  const caEnd = new Date(now + 1000 * HOUR);
  expect(validity(HOUR, caEnd, now)).toEqual({ notBefore: new Date(now - 300_000), notAfter: new Date(now + HOUR) });
  expect(validity(10 * HOUR, caEnd, now).notAfter).toEqual(new Date(now + 10 * HOUR - 300_000));
  expect(validity(2000 * HOUR, caEnd, now).notAfter).toEqual(caEnd);
  expect(() => validity(HOUR, new Date(now - 600_000), now)).toThrow("the signer has expired");
  expect(() => validity(HOUR, new Date(now - 1), now)).toThrow("refusing to sign a certificate that expired in the past");
});

test("certificateTtlMs() honours a shorter expirationSeconds, never under 10 minutes (signer.duration)", () => {
  expect(certificateTtlMs(8760 * HOUR, undefined)).toBe(8760 * HOUR);
  expect(certificateTtlMs(HOUR, 7200)).toBe(HOUR);
  expect(certificateTtlMs(8760 * HOUR, 1800)).toBe(1800_000);
  expect(certificateTtlMs(8760 * HOUR, 60)).toBe(600_000);
});
