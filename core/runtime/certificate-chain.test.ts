import { beforeAll, expect, test } from "bun:test";
import {
  createCertificateAuthority,
  issueClientCertificate,
  type IssuedCertificate,
  issueServingCertificate,
} from "../server/certificates.ts";
import { chainVerifier } from "./certificate-chain.ts";

let clientCaPem: string;
let proxyCaPem: string;
let clientCert: IssuedCertificate;
let proxyCert: IssuedCertificate;
let servingCert: IssuedCertificate;

beforeAll(async () => {
  const clientCa = await createCertificateAuthority("client-ca", { days: 1 });
  const proxyCa = await createCertificateAuthority("proxy-ca", { days: 1 });
  clientCaPem = clientCa.certPem;
  proxyCaPem = proxyCa.certPem;
  clientCert = await issueClientCertificate(clientCa, { commonName: "alice", days: 1 });
  proxyCert = await issueClientCertificate(proxyCa, { commonName: "front-proxy", days: 1 });
  servingCert = await issueServingCertificate(clientCa, { commonName: "server", hosts: ["127.0.0.1"], days: 1 });
});

test("chainVerifier() accepts a client certificate its CA issued and rejects one from another CA", () => {
  const fromClientCA = chainVerifier(clientCaPem);
  expect(fromClientCA([clientCert.certPem])).toBe(true);
  expect(fromClientCA([proxyCert.certPem])).toBe(false);
  expect(chainVerifier(`${clientCaPem}${proxyCaPem}`)([proxyCert.certPem])).toBe(true);
});

test("chainVerifier() rejects an expired chain, a server-only certificate and an empty chain", () => {
  const verify = chainVerifier(clientCaPem);
  expect(verify([clientCert.certPem], new Date(Date.now() + 3 * 86_400_000))).toBe(false);
  expect(verify([servingCert.certPem])).toBe(false);
  expect(verify([])).toBe(false);
});

test("a chain that does not parse is not verified, and does not throw", () => {
  expect(chainVerifier(clientCaPem)(["-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n"])).toBe(false);
});

test("a chain remembered as verified stops verifying at its notAfter, as verifying again would", () => {
  const verify = chainVerifier(clientCaPem);
  expect(verify([clientCert.certPem])).toBe(true);
  expect(verify([clientCert.certPem])).toBe(true);
  expect(verify([clientCert.certPem], new Date(Date.now() + 3 * 86_400_000))).toBe(false);
});

test("what one bundle's verifier remembers is not trusted by a verifier of a changed bundle", () => {
  expect(chainVerifier(`${clientCaPem}${proxyCaPem}`)([proxyCert.certPem])).toBe(true);
  expect(chainVerifier(clientCaPem)([proxyCert.certPem])).toBe(false);
});

test("a refused chain stays refused, and the answer is remembered without changing it", () => {
  const fromClientCA = chainVerifier(clientCaPem);
  for (let i = 0; i < 3; i++) expect(fromClientCA([proxyCert.certPem])).toBe(false);
  expect(fromClientCA([clientCert.certPem])).toBe(true);
});

test("one connection's chain, asked again, keeps its answer while it holds and is asked anew once it does not", () => {
  const verify = chainVerifier(clientCaPem);
  const chain = [clientCert.certPem];
  expect(verify(chain)).toBe(true);
  expect(verify(chain)).toBe(true);
  expect(verify(chain, new Date(Date.now() + 3 * 86_400_000))).toBe(false);
  expect(verify(chain)).toBe(true);
  const refused = [proxyCert.certPem];
  expect(verify(refused)).toBe(false);
  expect(verify(refused)).toBe(false);
});
