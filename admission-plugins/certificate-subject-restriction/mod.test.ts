import { expect, test } from "bun:test";
import { statusErrorOfAsync } from "../../core/api/testing.ts";
import { makeCSR, requestField } from "../../core/api/certificates/testing.ts";
import { testAttributes } from "../../core/admission/testing.ts";
import type { BuiltInAdmissionContext } from "../../core/admission/types.ts";
import certificateSubjectRestriction from "./mod.ts";

async function create(signerName: string, organizations: string[]) {
  const { csrPem } = await makeCSR({ commonName: "eve", organizations });
  return testAttributes({
    operation: "CREATE",
    name: "r",
    namespace: "",
    resource: { group: "certificates.k8s.io", version: "v1", resource: "certificatesigningrequests" },
    object: { metadata: { name: "r" }, spec: { signerName, request: requestField(csrPem) } },
  });
}

test("CertificateSubjectRestriction refuses system:masters for the kube-apiserver-client signer", async () => {
  const plugin = await certificateSubjectRestriction({} as BuiltInAdmissionContext);
  const error = await statusErrorOfAsync(
    (async () => plugin.validate!(await create("kubernetes.io/kube-apiserver-client", ["dev", "system:masters"])))(),
  );
  expect(error.code).toBe(403);
  expect(error.message).toBe(
    'certificatesigningrequests.certificates.k8s.io "r" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed',
  );
});

test("CertificateSubjectRestriction allows other groups, and system:masters for other signers", async () => {
  const plugin = await certificateSubjectRestriction({} as BuiltInAdmissionContext);
  await plugin.validate!(await create("kubernetes.io/kube-apiserver-client", ["dev"]));
  await plugin.validate!(await create("example.com/foo", ["system:masters"]));
});
