import { expect, test } from "bun:test";
import { LEGACY_ISSUER, readServiceAccountClaims, serviceAccountUser } from "./claims.ts";

test("readServiceAccountClaims() reads a pod-bound token's kubernetes.io claim and the user gets pod extras", () => {
  const claims = readServiceAccountClaims({
    iss: "https://issuer",
    "kubernetes.io": { namespace: "ns", serviceaccount: { name: "sa", uid: "u1" }, pod: { name: "p", uid: "u2" } },
  });
  expect(claims).toEqual({
    namespace: "ns",
    serviceAccount: { name: "sa", uid: "u1" },
    pod: { name: "p", uid: "u2" },
    secret: undefined,
    legacy: false,
  });
  expect(serviceAccountUser(claims!)).toEqual({
    username: "system:serviceaccount:ns:sa",
    uid: "u1",
    groups: ["system:serviceaccounts", "system:serviceaccounts:ns"],
    extra: { "authentication.kubernetes.io/pod-name": ["p"], "authentication.kubernetes.io/pod-uid": ["u2"] },
  });
});

test("readServiceAccountClaims() reads legacy secret-token claims", () => {
  const claims = readServiceAccountClaims({
    iss: LEGACY_ISSUER,
    "kubernetes.io/serviceaccount/namespace": "ns",
    "kubernetes.io/serviceaccount/secret.name": "sa-token-x",
    "kubernetes.io/serviceaccount/service-account.name": "sa",
    "kubernetes.io/serviceaccount/service-account.uid": "u1",
  });
  expect(claims).toEqual({
    namespace: "ns",
    serviceAccount: { name: "sa", uid: "u1" },
    secret: { name: "sa-token-x", uid: "" },
    legacy: true,
  });
});

test("readServiceAccountClaims() answers undefined when no service account is named", () => {
  expect(readServiceAccountClaims({ iss: "https://issuer", sub: "someone" })).toBeUndefined();
  expect(readServiceAccountClaims({ iss: LEGACY_ISSUER, "kubernetes.io/serviceaccount/namespace": "ns" })).toBeUndefined();
});
