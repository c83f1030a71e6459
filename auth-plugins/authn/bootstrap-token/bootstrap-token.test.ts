import { expect, test } from "bun:test";
import type { KubeObject } from "../../../core/api/types.ts";
import { bootstrapTokenAuthenticator } from "./bootstrap-token.ts";

const NOW = new Date("2030-01-01T00:00:00Z");
const TOKEN = "abcdef.0123456789abcdef";

function secret(data: Record<string, string>, extra: Partial<KubeObject> & { type?: string } = {}): KubeObject {
  const encoded = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString("base64")]));
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "bootstrap-token-abcdef", namespace: "kube-system" },
    type: "bootstrap.kubernetes.io/token",
    data: encoded,
    ...extra,
  } as KubeObject;
}

const VALID = { "token-id": "abcdef", "token-secret": "0123456789abcdef", "usage-bootstrap-authentication": "true" };

function authenticatorFor(stored: KubeObject | null) {
  const logged: string[] = [];
  const log = { info: (m: string) => logged.push(m), warn: () => {}, error: () => {} };
  const lookedUp: string[] = [];
  const lookUp = (name: string) => {
    lookedUp.push(name);
    return Promise.resolve(stored);
  };
  return { authenticator: bootstrapTokenAuthenticator(lookUp, { log, now: () => NOW }), logged, lookedUp };
}

test("a matching bootstrap token is user system:bootstrap:<id> in system:bootstrappers", async () => {
  const { authenticator, lookedUp } = authenticatorFor(secret(VALID));
  expect(await authenticator.authenticateToken(TOKEN, [])).toEqual({
    kind: "user",
    user: { username: "system:bootstrap:abcdef", groups: ["system:bootstrappers"] },
  });
  expect(lookedUp).toEqual(["bootstrap-token-abcdef"]);
});

test("auth-extra-groups are added, deduplicated and sorted", async () => {
  const { authenticator } = authenticatorFor(
    secret({ ...VALID, "auth-extra-groups": "system:bootstrappers:z,system:bootstrappers:a,system:bootstrappers:z" }),
  );
  const result = await authenticator.authenticateToken(TOKEN, []);
  expect(result.kind === "user" && result.user.groups).toEqual([
    "system:bootstrappers",
    "system:bootstrappers:a",
    "system:bootstrappers:z",
  ]);
});

test("tokens not shaped <6>.<16> are not looked up", async () => {
  const { authenticator, lookedUp } = authenticatorFor(secret(VALID));
  for (const token of ["abcdef.0123456789abcde", "ABCDEF.0123456789abcdef", "abcdef0123456789abcdef", ""]) {
    expect(await authenticator.authenticateToken(token, [])).toEqual({ kind: "not-mine" });
  }
  expect(lookedUp).toEqual([]);
});

test("an expired, unusable, mismatched or malformed secret is not accepted and is logged", async () => {
  const cases: [KubeObject | null, string][] = [
    [null, ""],
    [secret({ ...VALID, expiration: "2029-12-31T23:59:59Z" }), "has expired."],
    [secret({ ...VALID, expiration: "tomorrow" }), "has expired."],
    [secret({ ...VALID, "usage-bootstrap-authentication": "false" }), "not marked usage-bootstrap-authentication=true."],
    [secret({ ...VALID, "token-secret": "ffffffffffffffff" }), "has invalid value for key token-secret."],
    [secret({ ...VALID, "token-id": "zzzzzz" }), "has invalid value for key token-id, expected abcdef."],
    [secret(VALID, { type: "Opaque" }), "has invalid type, expected bootstrap.kubernetes.io/token."],
    [
      secret(VALID, { metadata: { name: "bootstrap-token-abcdef", deletionTimestamp: "2029-01-01T00:00:00Z" } }),
      "is deleted and awaiting removal",
    ],
    [
      secret({ ...VALID, "auth-extra-groups": "system:nodes" }),
      'has invalid value for key auth-extra-groups: bootstrap group "system:nodes" is invalid',
    ],
  ];
  for (const [stored, expectedLine] of cases) {
    const { authenticator, logged: lines } = authenticatorFor(stored);
    expect(await authenticator.authenticateToken(TOKEN, [])).toEqual({ kind: "not-mine" });
    if (expectedLine) expect(lines[0]).toContain(`Bootstrap secret kube-system/bootstrap-token-abcdef ${expectedLine}`);
  }
});

test("an expiration in the future is accepted", async () => {
  const { authenticator } = authenticatorFor(secret({ ...VALID, expiration: "2030-01-01T00:00:01+00:00" }));
  expect((await authenticator.authenticateToken(TOKEN, [])).kind).toBe("user");
});
