import { expect, test } from "bun:test";
import { statusErrorOfAsync } from "../../core/api/testing.ts";
import { testAttributes } from "../../core/admission/testing.ts";
import type { BuiltInAdmissionContext } from "../../core/admission/types.ts";
import type { Authorizer } from "../../core/auth/authorizer.ts";
import certificateSigning from "./mod.ts";

const signOn = (names: string[]): Authorizer => ({
  authorize: (a) =>
    Promise.resolve({ decision: a.verb === "sign" && a.resource === "signers" && names.includes(a.name) ? "Allow" : "NoOpinion" }),
});
const csr = (certificate?: string) => ({
  metadata: { name: "r" },
  spec: { signerName: "example.com/foo" },
  status: certificate ? { certificate } : {},
});
const statusWrite = (certificate?: string) =>
  testAttributes({
    operation: "UPDATE",
    object: csr(certificate),
    oldObject: csr(),
    subresource: "status",
    name: "r",
    namespace: "",
    resource: { group: "certificates.k8s.io", version: "v1", resource: "certificatesigningrequests" },
  });

test("CertificateSigning refuses setting status.certificate without `sign` on the signer", async () => {
  const plugin = await certificateSigning({ authorizer: signOn([]) } as BuiltInAdmissionContext);
  const error = await statusErrorOfAsync((async () => plugin.validate!(statusWrite("Y2VydA==")))());
  expect(error.message).toBe(
    'certificatesigningrequests.certificates.k8s.io "r" is forbidden: user not permitted to sign requests with signerName "example.com/foo"',
  );
});

test("CertificateSigning lets status writes that leave the certificate alone through, and signers sign", async () => {
  await (await certificateSigning({ authorizer: signOn([]) } as BuiltInAdmissionContext)).validate!(statusWrite());
  await (await certificateSigning({ authorizer: signOn(["example.com/*"]) } as BuiltInAdmissionContext)).validate!(statusWrite("Y2VydA=="));
});
