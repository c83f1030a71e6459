import { expect, test } from "bun:test";
import { checkCSRSignature, parseCSR } from "./csr.ts";
import { apiServerClientProblem, kubeletClientProblem, kubeletServingProblem } from "./signers.ts";
import { makeCSR } from "./testing.ts";

test("parseCSR() reads subject and SANs of a request (kube's certificates.ParseCSR)", async () => {
  const { csrPem } = await makeCSR({
    commonName: "system:node:n1",
    organizations: ["system:nodes"],
    dnsNames: ["n1.example"],
    ipAddresses: ["10.0.0.1"],
  });
  const csr = parseCSR(csrPem);
  expect(csr.commonName).toBe("system:node:n1");
  expect(csr.organizations).toEqual(["system:nodes"]);
  expect(csr.dnsNames).toEqual(["n1.example"]);
  expect(csr.ipAddresses).toEqual(["10.0.0.1"]);
});

test("parseCSR() refuses anything but a CERTIFICATE REQUEST block with kube's message", () => {
  expect(() => parseCSR("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")).toThrow(
    "PEM block type must be CERTIFICATE REQUEST",
  );
  expect(() => parseCSR("not pem")).toThrow("PEM block type must be CERTIFICATE REQUEST");
});

test("checkCSRSignature() accepts ECDSA and RSA requests and refuses a tampered one (Go's CheckSignature)", async () => {
  for (const rsa of [false, true]) {
    const { csrPem } = await makeCSR({ commonName: "alice", rsa });
    expect(() => checkCSRSignature(parseCSR(csrPem))).not.toThrow();
  }
  const { csrPem } = await makeCSR({ commonName: "alice" });
  const der = Buffer.from(csrPem.split("\n").filter((l) => !l.startsWith("-----")).join(""), "base64");
  der[der.length - 5] = der[der.length - 5]! ^ 0xff;
  const tampered = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString("base64")}\n-----END CERTIFICATE REQUEST-----\n`;
  expect(() => checkCSRSignature(parseCSR(tampered))).toThrow("x509: ECDSA verification failure");
});

test("kubeletClientProblem() follows ValidateKubeletClientCSR", async () => {
  const node = parseCSR((await makeCSR({ commonName: "system:node:n1", organizations: ["system:nodes"] })).csrPem);
  expect(kubeletClientProblem(node, ["digital signature", "client auth"])).toBeUndefined();
  expect(kubeletClientProblem(node, ["key encipherment", "digital signature", "client auth"])).toBeUndefined();
  expect(kubeletClientProblem(node, ["client auth"])).toBe("usages did not match [client auth digital signature key encipherment]");
  const other = parseCSR((await makeCSR({ commonName: "alice", organizations: ["system:nodes"] })).csrPem);
  expect(kubeletClientProblem(other, ["digital signature", "client auth"])).toBe("subject common name does not begin with system:node:");
  const withDNS = parseCSR((await makeCSR({ commonName: "system:node:n1", organizations: ["system:nodes"], dnsNames: ["x"] })).csrPem);
  expect(kubeletClientProblem(withDNS, ["digital signature", "client auth"])).toBe("DNS subjectAltNames are not allowed");
  const noOrg = parseCSR((await makeCSR({ commonName: "system:node:n1" })).csrPem);
  expect(kubeletClientProblem(noOrg, ["digital signature", "client auth"])).toBe("subject organization is not system:nodes");
});

test("kubeletServingProblem() requires a DNS or IP SAN (ValidateKubeletServingCSR)", async () => {
  const bare = parseCSR((await makeCSR({ commonName: "system:node:n1", organizations: ["system:nodes"] })).csrPem);
  expect(kubeletServingProblem(bare, ["digital signature", "server auth"])).toBe("DNS or IP subjectAltName is required");
  const withIP = parseCSR(
    (await makeCSR({ commonName: "system:node:n1", organizations: ["system:nodes"], ipAddresses: ["10.0.0.1"] })).csrPem,
  );
  expect(kubeletServingProblem(withIP, ["digital signature", "server auth"])).toBeUndefined();
});

test("apiServerClientProblem() follows the signer's validAPIServerClientUsages", () => {
  expect(apiServerClientProblem(["client auth", "digital signature"])).toBeUndefined();
  expect(apiServerClientProblem(["server auth", "client auth"])).toBe("invalid usage for client certificate: server auth");
  expect(apiServerClientProblem(["digital signature"])).toBe("missing required usage for client certificate: client auth");
});
