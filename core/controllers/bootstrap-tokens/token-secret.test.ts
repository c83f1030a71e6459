import { expect, test } from "bun:test";
import { Buffer } from "node:buffer";
import type { KubeObject } from "../../api/types.ts";
import { hasExpired, readBootstrapToken } from "./token-secret.ts";

function stored(name: string, data: Record<string, string>, type = "bootstrap.kubernetes.io/token"): KubeObject {
  const encoded = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString("base64")]));
  return { metadata: { name, namespace: "kube-system" }, type, data: encoded };
}

test("readBootstrapToken() reads id, secret, expiry and signing use of a well-formed token Secret", () => {
  const token = readBootstrapToken(stored("bootstrap-token-abcdef", {
    "token-id": "abcdef",
    "token-secret": "0123456789abcdef",
    expiration: "2030-01-01T00:00:00Z",
    "usage-bootstrap-signing": "true",
  }));
  expect(token).toEqual({ id: "abcdef", secret: "0123456789abcdef", expiresAt: Date.parse("2030-01-01T00:00:00Z"), signing: true });
});

test("readBootstrapToken() ignores other types, mismatched names and malformed secrets", () => {
  const data = { "token-id": "abcdef", "token-secret": "0123456789abcdef" };
  expect(readBootstrapToken(stored("bootstrap-token-abcdef", data, "Opaque"))).toBeUndefined();
  expect(readBootstrapToken(stored("bootstrap-token-zzzzzz", data))).toBeUndefined();
  expect(readBootstrapToken(stored("bootstrap-token-abcdef", { ...data, "token-secret": "short" }))).toBeUndefined();
});

test("hasExpired() treats an unparseable expiration as expired and a missing one as never", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");
  expect(hasExpired(undefined, now)).toBe(false);
  expect(hasExpired(Number.NaN, now)).toBe(true);
  expect(hasExpired(now, now)).toBe(true);
  expect(hasExpired(now + 1, now)).toBe(false);
});
