import { expect, test } from "bun:test";
import { statusErrorOfAsync } from "../../core/api/testing.ts";
import { testAttributes } from "../../core/admission/testing.ts";
import type { BuiltInAdmissionContext } from "../../core/admission/types.ts";
import type { Attributes, Authorizer } from "../../core/auth/authorizer.ts";
import certificateApproval from "./mod.ts";

/** Allows `verb` on signers named in `names` and records the questions. */
function signerAuthorizer(verb: string, names: string[], asked: Attributes[] = []): Authorizer {
  return {
    authorize: (a) => {
      asked.push(a);
      return Promise.resolve({ decision: a.verb === verb && a.resource === "signers" && names.includes(a.name) ? "Allow" : "NoOpinion" });
    },
  };
}

const csr = {
  apiVersion: "certificates.k8s.io/v1",
  kind: "CertificateSigningRequest",
  metadata: { name: "r" },
  spec: { signerName: "example.com/foo" },
};
const approval = testAttributes({
  operation: "UPDATE",
  object: csr,
  oldObject: csr,
  subresource: "approval",
  name: "r",
  namespace: "",
  kind: { group: "certificates.k8s.io", version: "v1", kind: "CertificateSigningRequest" },
  resource: { group: "certificates.k8s.io", version: "v1", resource: "certificatesigningrequests" },
});
const plugin = (authorizer: Authorizer) => certificateApproval({ authorizer } as BuiltInAdmissionContext);

test("CertificateApproval refuses an approval without `approve` on the signer, in kube's words", async () => {
  const asked: Attributes[] = [];
  const p = await plugin(signerAuthorizer("approve", [], asked));
  const error = await statusErrorOfAsync((async () => p.validate!(approval))());
  expect(error.code).toBe(403);
  expect(error.message).toBe(
    'certificatesigningrequests.certificates.k8s.io "r" is forbidden: user not permitted to approve requests with signerName "example.com/foo"',
  );
  // IsAuthorizedForSignerName asks for the exact name, then the domain wildcard.
  expect(asked.map((a) => [a.apiGroup, a.resource, a.name])).toEqual([["certificates.k8s.io", "signers", "example.com/foo"], [
    "certificates.k8s.io",
    "signers",
    "example.com/*",
  ]]);
});

test("CertificateApproval allows `approve` on the signer or on its domain wildcard", async () => {
  for (const name of ["example.com/foo", "example.com/*"]) {
    const p = await plugin(signerAuthorizer("approve", [name]));
    await p.validate!(approval);
  }
  const p = await plugin(signerAuthorizer("approve", []));
  expect(p.handles!(testAttributes({ ...approval, subresource: "status" }))).toBe(false);
});
