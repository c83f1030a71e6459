import { afterEach, expect, test } from "bun:test";
import { X509Certificate } from "node:crypto";
import type { ControllerManager } from "../runtime/mod.ts";
import { eventually, type TestCluster, testCluster } from "../runtime/testing.ts";
import { runControllers } from "../_test-manager.ts";
import { csrSigningController } from "./signer.ts";
import { approved, csrObject, signingCA } from "./_fixtures.ts";
import type { CertificateSigningRequest as CSRFields } from "../../api/certificates/mod.ts";

let cluster: TestCluster | undefined;
let manager: ControllerManager | undefined;
afterEach(async () => {
  await manager?.stop();
  await cluster?.close();
});

const csrs = () =>
  cluster!.registry.store(cluster!.catalog.byGroupVersionResource("certificates.k8s.io", "v1", "certificatesigningrequests")!);

async function approve(name: string): Promise<void> {
  await csrs().update("", name, (c) => ({ ...c!, status: approved }), { subresource: "approval" });
}

async function issued(name: string): Promise<X509Certificate> {
  const csr = await eventually(async () => {
    const c = await csrs().get("", name) as CSRFields;
    return c.status?.certificate ? c : undefined;
  });
  return new X509Certificate(Buffer.from(csr.status!.certificate!, "base64"));
}

test("signer.handle issues an approved kube-apiserver-client request with the CA, capped by expirationSeconds", async () => {
  const ca = await signingCA();
  cluster = await testCluster({ clusterSigning: ca });
  manager = await runControllers(cluster, [csrSigningController]);
  await csrs().create(
    "",
    await csrObject("alice", { commonName: "alice", organizations: ["dev"] }, {
      signerName: "kubernetes.io/kube-apiserver-client",
      usages: ["client auth", "digital signature"],
      expirationSeconds: 3600,
    }),
  );
  await approve("alice");
  const certificate = await issued("alice");
  expect(certificate.subject).toBe("O=dev\nCN=alice");
  expect(certificate.verify(new X509Certificate(ca.certPem).publicKey)).toBe(true);
  expect(certificate.keyUsage).toEqual(["1.3.6.1.5.5.7.3.2"]);
  // Short-lived: valid from 5 minutes ago (backdate) to an hour from now (no end backdate under 8h).
  const lifetime = Date.parse(certificate.validTo) - Date.parse(certificate.validFrom);
  expect(Math.abs(lifetime - 65 * 60_000)).toBeLessThan(5_000);
});

test("signer.handle marks a kubelet client request with a wrong subject Failed (SignerValidationFailure)", async () => {
  cluster = await testCluster({ clusterSigning: await signingCA() });
  manager = await runControllers(cluster, [csrSigningController]);
  await csrs().create(
    "",
    await csrObject("bad", { commonName: "alice", organizations: ["system:nodes"] }, {
      signerName: "kubernetes.io/kube-apiserver-client-kubelet",
      usages: ["client auth", "digital signature"],
    }),
  );
  await approve("bad");
  const failed = await eventually(async () =>
    ((await csrs().get("", "bad")) as CSRFields).status?.conditions?.find((c) => c.type === "Failed")
  );
  expect(failed).toMatchObject({
    status: "True",
    reason: "SignerValidationFailure",
    message: "subject common name does not begin with system:node:",
  });
  expect(((await csrs().get("", "bad")) as CSRFields).status?.certificate).toBeUndefined();
});

test("the default duration caps a request without expirationSeconds (--cluster-signing-duration)", async () => {
  cluster = await testCluster({ clusterSigning: await signingCA() });
  cluster.settings.config = { ...cluster.settings.config, clusterSigningDurationMs: 24 * 3_600_000 };
  manager = await runControllers(cluster, [csrSigningController]);
  await csrs().create(
    "",
    await csrObject("node", { commonName: "system:node:n1", organizations: ["system:nodes"] }, {
      signerName: "kubernetes.io/kube-apiserver-client-kubelet",
      usages: ["client auth", "digital signature", "key encipherment"],
    }),
  );
  await approve("node");
  const certificate = await issued("node");
  const lifetime = Date.parse(certificate.validTo) - Date.parse(certificate.validFrom);
  // 24h, backdated 5 minutes at both ends.
  expect(Math.abs(lifetime - 24 * 3_600_000)).toBeLessThan(5_000);
});

test("signer.handle issues a kubelet serving certificate with the request's SANs (isKubeletServing)", async () => {
  cluster = await testCluster({ clusterSigning: await signingCA() });
  manager = await runControllers(cluster, [csrSigningController]);
  await csrs().create(
    "",
    await csrObject("serving", {
      commonName: "system:node:n1",
      organizations: ["system:nodes"],
      dnsNames: ["n1.local"],
      ipAddresses: ["10.0.0.7"],
    }, {
      signerName: "kubernetes.io/kubelet-serving",
      usages: ["digital signature", "key encipherment", "server auth"],
    }),
  );
  await approve("serving");
  const certificate = await issued("serving");
  expect(certificate.subjectAltName).toBe("DNS:n1.local, IP Address:10.0.0.7");
  expect(certificate.keyUsage).toEqual(["1.3.6.1.5.5.7.3.1"]);
});
