import { expect, test } from "bun:test";
import { createCertificateAuthority } from "../server/certificates.ts";
import { type AuthenticationTrust, authenticationTrustData } from "./authentication-trust-data.ts";

const clientCA = await createCertificateAuthority("client-ca", { days: 1 });
const proxyCA = await createCertificateAuthority("front-proxy-ca", { days: 1 });
const otherCA = await createCertificateAuthority("other-ca", { days: 30 });

const REQUIRED: AuthenticationTrust = {
  clientCA: clientCA.certPem,
  requestHeaderCA: proxyCA.certPem,
  requestHeaderAllowedNames: ["front-proxy-client"],
  requestHeaderUsernameHeaders: ["X-Remote-User"],
  requestHeaderGroupHeaders: ["X-Remote-Group"],
  requestHeaderExtraHeadersPrefix: ["X-Remote-Extra-"],
};

const derOf = (pem: string) => pem.replace(/-----[A-Z ]+-----|\s/g, "");

test("getConfigMapDataFor: the 1.26 keys, header lists JSON-encoded, CAs as PEM bundles", () => {
  const data = authenticationTrustData({}, REQUIRED);
  expect(Object.keys(data).sort()).toEqual([
    "client-ca-file",
    "requestheader-allowed-names",
    "requestheader-client-ca-file",
    "requestheader-extra-headers-prefix",
    "requestheader-group-headers",
    "requestheader-username-headers",
  ]);
  expect(data["requestheader-allowed-names"]).toBe('["front-proxy-client"]');
  expect(data["requestheader-username-headers"]).toBe('["X-Remote-User"]');
  expect(derOf(data["client-ca-file"]!)).toBe(derOf(clientCA.certPem));
  expect(derOf(data["requestheader-client-ca-file"]!)).toBe(derOf(proxyCA.certPem));
});

test("combinedClusterAuthenticationInfo: stored additions stay first, removed required values come back, each once", () => {
  const stored = {
    "requestheader-allowed-names": '["someone-else"]',
    "requestheader-username-headers": '["X-Remote-User"]',
    "requestheader-client-ca-file": otherCA.certPem + proxyCA.certPem,
    "client-ca-file": "not a certificate",
  };
  const data = authenticationTrustData(stored, REQUIRED);
  expect(data["requestheader-allowed-names"]).toBe('["someone-else","front-proxy-client"]');
  expect(data["requestheader-username-headers"]).toBe('["X-Remote-User"]');
  expect(derOf(data["requestheader-client-ca-file"]!)).toBe(derOf(otherCA.certPem) + derOf(proxyCA.certPem));
  expect(derOf(data["client-ca-file"]!)).toBe(derOf(clientCA.certPem));
});

test("filterExpiredCerts: expired CAs are dropped, and without a front-proxy CA no requestheader keys are written", () => {
  const inTwoDays = Date.now() + 2 * 24 * 3600 * 1000;
  const data = authenticationTrustData({ "requestheader-client-ca-file": otherCA.certPem }, REQUIRED, inTwoDays);
  expect(data["client-ca-file"]).toBeUndefined();
  expect(data["requestheader-allowed-names"]).toBe('["front-proxy-client"]');
  expect(derOf(data["requestheader-client-ca-file"]!)).toBe(derOf(otherCA.certPem));
  expect(authenticationTrustData({}, { ...REQUIRED, requestHeaderCA: "" })).toEqual({ "client-ca-file": expect.any(String) });
});
