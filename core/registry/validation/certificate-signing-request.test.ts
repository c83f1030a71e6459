import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { makeCSR, requestField } from "../../api/certificates/testing.ts";
import {
  validateCertificateSigningRequest,
  validateCertificateSigningRequestUpdate,
  validateSignerName,
} from "./certificate-signing-request.ts";

async function csr(spec: Record<string, unknown> = {}): Promise<KubeObject> {
  const { csrPem } = await makeCSR({ commonName: "alice" });
  return {
    metadata: { name: "r" },
    spec: { request: requestField(csrPem), signerName: "example.com/signer", usages: ["client auth"], ...spec },
  };
}

const fields = (obj: KubeObject) => validateCertificateSigningRequest(obj).map((e) => `${e.field} ${e.type} ${e.detail}`);

test("ValidateCertificateSigningRequestCreate accepts a signed request", async () => {
  expect(fields(await csr())).toEqual([]);
});

test("spec.request must be a PEM CSR (certificates.ParseCSR)", async () => {
  const errors = validateCertificateSigningRequest(await csr({ request: Buffer.from("hello").toString("base64") }));
  expect(errors.map((e) => [e.field, e.detail, e.valueText])).toEqual([[
    "spec.request",
    "PEM block type must be CERTIFICATE REQUEST",
    "[]byte{0x68, 0x65, 0x6c, 0x6c, 0x6f}",
  ]]);
});

test("usages are required, known and unique", async () => {
  expect(fields(await csr({ usages: [] }))).toEqual(["spec.usages FieldValueRequired "]);
  expect(fields(await csr({ usages: ["client auth", "client auth", "flying"] })).map((f) => f.split(" ").slice(0, 2).join(" "))).toEqual([
    "spec.usages[2] FieldValueNotSupported",
    "spec.usages[1] FieldValueDuplicate",
  ]);
});

test("expirationSeconds below 600 is invalid", async () => {
  expect(fields(await csr({ expirationSeconds: 599 }))).toEqual([
    "spec.expirationSeconds FieldValueInvalid may not specify a duration less than 600 seconds (10 minutes)",
  ]);
});

test("the legacy signer is refused in v1 and signerName follows ValidateSignerName", async () => {
  expect(fields(await csr({ signerName: "kubernetes.io/legacy-unknown" }))).toEqual([
    "spec.signerName FieldValueInvalid the legacy signerName is not allowed via this API version",
  ]);
  expect(validateSignerName("f", "").map((e) => e.type)).toEqual(["FieldValueRequired"]);
  expect(validateSignerName("f", "nodomain").map((e) => e.detail)).toEqual([
    "must be a fully qualified domain and path of the form 'example.com/signer-name'",
  ]);
  expect(validateSignerName("f", "example/x").map((e) => e.detail)).toEqual([
    "should be a domain with at least two segments separated by dots",
  ]);
  expect(validateSignerName("f", "Example.com/x")[0]!.detail).toStartWith('validating label "Example": a lowercase RFC 1123 label');
});

test("conditions Approved/Denied/Failed may only be True and not repeat", async () => {
  const obj = await csr();
  obj.status = { conditions: [{ type: "Approved", status: "False" }, { type: "", status: "True" }, { type: "X", status: "" }] };
  expect(fields(obj).map((f) => f.split(" ").slice(0, 2).join(" "))).toEqual([
    "status.conditions[0].status FieldValueNotSupported",
    "status.conditions[1].type FieldValueRequired",
    "status.conditions[2].status FieldValueRequired",
  ]);
});

test("an update tolerates what the stored object already has wrong (getValidationOptions)", async () => {
  const old = await csr();
  old.status = { conditions: [{ type: "Approved", status: "True" }, { type: "Denied", status: "True" }] };
  const next = structuredClone(old);
  next.metadata.labels = { a: "b" };
  expect(validateCertificateSigningRequestUpdate(next, old, "")).toEqual([]);
  expect(validateCertificateSigningRequestUpdate(next, await csr(), "approval").map((e) => e.detail)).toEqual([
    "Approved and Denied conditions are mutually exclusive",
  ]);
});

test("an update may not remove Approved/Denied/Failed, and only approval may add them (validateCertificateSigningRequestUpdate)", async () => {
  const old = await csr();
  old.status = { conditions: [{ type: "Failed", status: "True" }] };
  const cleared = { ...structuredClone(old), status: {} };
  expect(validateCertificateSigningRequestUpdate(cleared, old, "status").map((e) => e.detail)).toEqual([
    'updates may not remove a condition of type "Failed"',
  ]);
  const approvedNow = {
    ...structuredClone(old),
    status: { conditions: [{ type: "Failed", status: "True" }, { type: "Approved", status: "True" }] },
  };
  expect(validateCertificateSigningRequestUpdate(approvedNow, old, "status").map((e) => e.detail)).toEqual([
    'updates may not add a condition of type "Approved"',
  ]);
  expect(validateCertificateSigningRequestUpdate(approvedNow, old, "approval")).toEqual([]);
});
