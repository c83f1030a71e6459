import { expect, test } from "bun:test";
import type { PluginContext } from "../../../core/auth/plugin-context.ts";
import type { Authentication, AuthenticationRequest, Authenticator } from "../../../plugins/sdk.ts";
import factory from "./mod.ts";

const x509 = (await factory({} as PluginContext)) as Authenticator;
const authenticate = (request: Partial<AuthenticationRequest>) => x509.authenticate(request as AuthenticationRequest) as Authentication;
const certificate = (commonName: string, verified = true) => ({ commonName, organizations: ["system:masters"], verified, chain: [] });

test("x509 Authenticator: a verified certificate names the user (CN) and groups (O); the same certificate gives the same user", () => {
  const cert = certificate("admin");
  const first = authenticate({ peerCertificate: cert });
  expect(first).toEqual({ kind: "user", user: { username: "admin", groups: ["system:masters"] } });
  expect(authenticate({ peerCertificate: cert })).toBe(first);
  expect(authenticate({ peerCertificate: certificate("alice") })).toMatchObject({ user: { username: "alice" } });
});

test("x509 Authenticator: an unverified certificate, or one without a common name, is an error; none is not-mine", () => {
  expect(authenticate({ peerCertificate: certificate("mallory", false) })).toEqual({
    kind: "error",
    message: "x509: certificate signed by unknown authority",
  });
  expect(authenticate({ peerCertificate: certificate("") })).toMatchObject({
    kind: "error",
    message: "x509: certificate has no common name",
  });
  expect(authenticate({})).toEqual({ kind: "not-mine" });
});
