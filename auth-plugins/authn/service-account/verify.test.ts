import { beforeAll, expect, test } from "bun:test";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SignJWT } from "jose";
import { loadServiceAccountKeys, type ServiceAccountKeys } from "../../../core/auth/service-account/keys.ts";
import { signBoundToken } from "../../../core/auth/service-account/sign.ts";
import { checkServiceAccountJwt } from "./verify.ts";

const ISSUER = "https://kubernetes.default.svc.cluster.local";
const API = [ISSUER];
let keys: ServiceAccountKeys;
let otherKeys: ServiceAccountKeys;

beforeAll(async () => {
  const files = async () => ({
    dataDir: await mkdtemp(join(tmpdir(), "kubun-sa-verify-")),
    serviceAccountSigningKeyFile: "",
    serviceAccountKeyFile: [],
  });
  keys = await loadServiceAccountKeys(await files());
  otherKeys = await loadServiceAccountKeys(await files());
});

function token(signing = keys, overrides: { audiences?: string[]; issuer?: string; now?: Date } = {}) {
  return signBoundToken(signing.signing, {
    issuer: overrides.issuer ?? ISSUER,
    audiences: overrides.audiences ?? API,
    expirationSeconds: 600,
    now: overrides.now ?? new Date(),
    namespace: "ns",
    serviceAccount: { name: "sa", uid: "u1" },
  });
}

const options = { issuers: [ISSUER], implicitAudiences: API, audiences: API };

test("a token signed by the signing key for the API audience is valid and names its account", async () => {
  const check = await checkServiceAccountJwt(await token(), keys.verifying, options);
  expect(check).toEqual({
    kind: "valid",
    claims: { namespace: "ns", serviceAccount: { name: "sa", uid: "u1" }, pod: undefined, secret: undefined, legacy: false },
    audiences: API,
  });
});

test("a token from another issuer, or not a JWT at all, is not ours", async () => {
  expect(await checkServiceAccountJwt(await token(keys, { issuer: "https://elsewhere" }), keys.verifying, options)).toEqual({
    kind: "not-mine",
  });
  expect(await checkServiceAccountJwt("opaque-static-token", keys.verifying, options)).toEqual({ kind: "not-mine" });
});

test("a token signed by an unknown key is an invalid signature", async () => {
  expect(await checkServiceAccountJwt(await token(otherKeys), keys.verifying, options)).toEqual({
    kind: "error",
    message: "invalid signature",
  });
});

test("an expired token is rejected after the one-minute leeway", async () => {
  const old = await token(keys, { now: new Date(Date.now() - 12 * 60_000) });
  expect(await checkServiceAccountJwt(old, keys.verifying, options)).toEqual({
    kind: "error",
    message: "service account token has expired",
  });
});

test("a token for other audiences is rejected with kube's message", async () => {
  const check = await checkServiceAccountJwt(await token(keys, { audiences: ["vault"] }), keys.verifying, options);
  expect(check).toEqual({ kind: "error", message: `token audiences ["vault"] is invalid for the target audiences ["${ISSUER}"]` });
});

test("a signed token without kubernetes.io claims is rejected", async () => {
  const bare = await new SignJWT({}).setProtectedHeader({ alg: keys.signing.alg }).setIssuer(ISSUER).setAudience(API).sign(
    keys.signing.key,
  );
  expect(await checkServiceAccountJwt(bare, keys.verifying, options)).toEqual({
    kind: "error",
    message: "service account token has no kubernetes.io claims",
  });
});

test("a token verified once is still refused once it has expired: only its signature is remembered", async () => {
  const issued = new Date(Date.now() - 5 * 60_000);
  const once = await token(keys, { now: issued });
  expect((await checkServiceAccountJwt(once, keys.verifying, options)).kind).toBe("valid");
  const later = { ...options, now: new Date(issued.getTime() + 12 * 60_000) };
  expect(await checkServiceAccountJwt(once, keys.verifying, later)).toEqual({
    kind: "error",
    message: "service account token has expired",
  });
});

test("a signature verified by one key set is not taken as verified by another (a changed key file)", async () => {
  const signed = await token(otherKeys);
  expect((await checkServiceAccountJwt(signed, otherKeys.verifying, options)).kind).toBe("valid");
  expect(await checkServiceAccountJwt(signed, keys.verifying, options)).toEqual({ kind: "error", message: "invalid signature" });
});

test("a token altered after a valid one was verified has an invalid signature", async () => {
  const valid = await token();
  expect((await checkServiceAccountJwt(valid, keys.verifying, options)).kind).toBe("valid");
  const [header, payload, signature] = valid.split(".");
  const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
  claims["kubernetes.io"].serviceaccount.name = "other";
  const forged = [header, Buffer.from(JSON.stringify(claims)).toString("base64url"), signature].join(".");
  expect(await checkServiceAccountJwt(forged, keys.verifying, options)).toEqual({ kind: "error", message: "invalid signature" });
});

test("a bootstrap token (one dot) and a JWE-like five-part string are not ours; a remembered JWT gives the same answer again", async () => {
  expect(await checkServiceAccountJwt("abcdef.0123456789abcdef", keys.verifying, options)).toEqual({ kind: "not-mine" });
  expect(await checkServiceAccountJwt("a.b.c.d.e", keys.verifying, options)).toEqual({ kind: "not-mine" });
  const signed = await token();
  const first = await checkServiceAccountJwt(signed, keys.verifying, options);
  expect(await checkServiceAccountJwt(signed, keys.verifying, options)).toEqual(first);
  expect(first.kind).toBe("valid");
});

test("jwtTokenAuthenticator.AuthenticateToken's answer for one token and audience list is made once, frozen; other audiences get their own", async () => {
  const signed = await token();
  const first = await checkServiceAccountJwt(signed, keys.verifying, options);
  expect(checkServiceAccountJwt(signed, keys.verifying, options)).toBe(first);
  expect(Object.isFrozen(first)).toBe(true);
  const vault = { ...options, audiences: ["vault"] };
  expect(checkServiceAccountJwt(signed, keys.verifying, vault)).toEqual({
    kind: "error",
    message: `token audiences ["${ISSUER}"] is invalid for the target audiences ["vault"]`,
  });
  expect(checkServiceAccountJwt(signed, keys.verifying, options)).toEqual(first);
});
