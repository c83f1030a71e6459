/**
 * certificates.k8s.io/v1 CertificateSigningRequest (kube's pkg/apis/certificates/validation: ValidateCertificateSigningRequestCreate,
 * ...Update, ...StatusUpdate, ...ApprovalUpdate). What an update may change depends on the path: only the status
 * subresource may set status.certificate, only the approval subresource may add Approved/Denied conditions.
 */
import { Buffer } from "node:buffer";
import { X509Certificate } from "node:crypto";
import type { FieldError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { checkCSRSignature, firstPemBlock, LEGACY_UNKNOWN_SIGNER, parseCSR } from "../../api/certificates/mod.ts";
import { isDNS1123Label, isDNS1123Subdomain } from "../../api/names.ts";
import { deepEqual, duplicate, forbidden, invalid, list, notSupported, record, required, text, tooLong } from "./_field.ts";

type Condition = { type?: string; status?: string };

/** kube's allValidUsages, listed as sets.String.List() does (sorted). */
const VALID_USAGES = [
  "any",
  "cert sign",
  "client auth",
  "code signing",
  "content commitment",
  "crl sign",
  "data encipherment",
  "decipher only",
  "digital signature",
  "email protection",
  "encipher only",
  "ipsec end system",
  "ipsec tunnel",
  "ipsec user",
  "key agreement",
  "key encipherment",
  "microsoft sgc",
  "netscape sgc",
  "ocsp signing",
  "s/mime",
  "server auth",
  "signing",
  "timestamping",
];
const TRUE_ONLY_CONDITIONS = new Set(["Approved", "Denied", "Failed"]);
const ALL_STATUS_VALUES = ["False", "True", "Unknown"];
const DNS1123_SUBDOMAIN_MAX = 253;
const DNS1123_LABEL_MAX = 63;

interface Options {
  allowSettingApprovalConditions: boolean;
  allowSettingCertificate: boolean;
  allowBothApprovedAndDenied: boolean;
  allowLegacySignerName: boolean;
  allowDuplicateConditionTypes: boolean;
  allowEmptyConditionType: boolean;
  allowArbitraryCertificate: boolean;
  allowUnknownUsages: boolean;
  allowDuplicateUsages: boolean;
}

const conditionsOf = (obj: KubeObject | undefined): Condition[] => list(record(obj?.status).conditions).map((c) => record(c) as Condition);
const usagesOf = (obj: KubeObject | undefined): string[] => list(record(obj?.spec).usages).map(String);
const certificateOf = (obj: KubeObject | undefined): string => text(record(obj?.status).certificate);
const decoded = (base64: string): string => Buffer.from(base64, "base64").toString("latin1");

/** Go's `%#v` of a []byte, as field.Invalid prints spec.request. */
function goBytes(bytes: Buffer): string {
  return `[]byte{${[...bytes].map((b) => `0x${b.toString(16)}`).join(", ")}}`;
}

/** kube's getValidationOptions: tolerate on update what the stored object already has wrong. */
function optionsFor(obj: KubeObject, old: KubeObject | undefined): Options {
  const oldConditions = conditionsOf(old);
  const types = oldConditions.map((c) => c.type ?? "");
  return {
    allowSettingApprovalConditions: false,
    allowSettingCertificate: false,
    allowBothApprovedAndDenied: old !== undefined && types.includes("Approved") && types.includes("Denied"),
    allowLegacySignerName: old !== undefined && text(record(old.spec).signerName) === LEGACY_UNKNOWN_SIGNER,
    allowDuplicateConditionTypes: old !== undefined && new Set(types).size !== types.length,
    allowEmptyConditionType: old !== undefined && types.includes(""),
    allowArbitraryCertificate: old !== undefined &&
      (certificateOf(obj) === certificateOf(old) || certificateProblem(certificateOf(old)) !== undefined),
    allowUnknownUsages: old !== undefined && usagesOf(old).some((u) => !VALID_USAGES.includes(u)),
    allowDuplicateUsages: old !== undefined && new Set(usagesOf(old)).size !== usagesOf(old).length,
  };
}

/** kube's validateCertificate: only CERTIFICATE blocks without headers, each a parseable certificate. */
function certificateProblem(base64: string): string | undefined {
  if (base64 === "") return undefined;
  let rest = decoded(base64);
  let blocks = 0;
  for (let block = firstPemBlock(rest); block; block = firstPemBlock(rest)) {
    if (block.type !== "CERTIFICATE") return `only CERTIFICATE PEM blocks are allowed, found "${block.type}"`;
    if (block.headers) return "no PEM block headers are permitted";
    try {
      new X509Certificate(block.der);
    } catch {
      return "x509: malformed certificate";
    }
    blocks++;
    rest = rest.slice(rest.indexOf(`-----END ${block.type}-----`) + `-----END ${block.type}-----`.length);
  }
  return blocks === 0 ? "must contain at least one CERTIFICATE PEM block" : undefined;
}

/** kube's ValidateSignerName (pkg/apis/core/validation). */
export function validateSignerName(field: string, signerName: string): FieldError[] {
  if (signerName === "") return [required(field)];
  const segments = signerName.split("/");
  if (segments.length !== 2) {
    return [invalid(field, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  }
  const [domain, path] = segments as [string, string];
  const errors: FieldError[] = [];
  if (domain.length > DNS1123_SUBDOMAIN_MAX) errors.push(tooLong(field, DNS1123_SUBDOMAIN_MAX));
  const domainLabels = domain.split(".");
  for (const label of domainLabels) {
    const problems = isDNS1123Label(label);
    if (problems.length === 0) continue;
    errors.push(...problems.map((p) => invalid(field, domain, `validating label "${label}": ${p}`)));
    break;
  }
  if (domainLabels.length < 2) errors.push(invalid(field, domain, "should be a domain with at least two segments separated by dots"));
  for (const label of path.split(".")) {
    const problems = isDNS1123Subdomain(label);
    if (problems.length === 0) continue;
    errors.push(...problems.map((p) => invalid(field, path, `validating label "${label}": ${p}`)));
    break;
  }
  // Room for a DNS subdomain, a label and the dots between them after the domain.
  const maxSignerName = DNS1123_SUBDOMAIN_MAX + (DNS1123_SUBDOMAIN_MAX + DNS1123_LABEL_MAX + 1) + 1;
  if (signerName.length > maxSignerName) errors.push(tooLong(field, maxSignerName));
  return errors;
}

function validateConditions(obj: KubeObject, options: Options): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditionsOf(obj).forEach((c, i) => {
    const at = `status.conditions[${i}]`;
    const type = c.type ?? "";
    if (!options.allowEmptyConditionType && type === "") errors.push(required(`${at}.type`));
    const allowed = TRUE_ONLY_CONDITIONS.has(type) ? ["True"] : ALL_STATUS_VALUES;
    if (!c.status) errors.push(required(`${at}.status`));
    else if (!allowed.includes(c.status)) errors.push(notSupported(`${at}.status`, c.status, allowed));
    if (!options.allowBothApprovedAndDenied) {
      if (type === "Approved") approved = true;
      if (type === "Denied") denied = true;
      if ((type === "Approved" && denied) || (type === "Denied" && approved)) {
        errors.push(invalid(`${at}.type`, type, "Approved and Denied conditions are mutually exclusive"));
      }
    }
    if (!options.allowDuplicateConditionTypes) {
      if (seen.has(type)) errors.push(duplicate(`${at}.type`, type));
      seen.add(type);
    }
  });
  return errors;
}

function validateRequest(base64: string): FieldError[] {
  const bytes = Buffer.from(base64, "base64");
  try {
    checkCSRSignature(parseCSR(bytes.toString("latin1")));
    return [];
  } catch (error) {
    return [invalid("spec.request", base64, (error as Error).message, goBytes(bytes))];
  }
}

/** kube's validateCertificateSigningRequest with the given options. */
function validateObject(obj: KubeObject, options: Options): FieldError[] {
  const spec = record(obj.spec);
  const usages = usagesOf(obj);
  const errors = validateRequest(text(spec.request));
  if (usages.length === 0) errors.push(required("spec.usages"));
  if (!options.allowUnknownUsages) {
    usages.forEach((u, i) => {
      if (!VALID_USAGES.includes(u)) errors.push(notSupported(`spec.usages[${i}]`, u, VALID_USAGES));
    });
  }
  if (!options.allowDuplicateUsages) {
    usages.forEach((u, i) => {
      if (usages.indexOf(u) !== i) errors.push(duplicate(`spec.usages[${i}]`, u));
    });
  }
  const signerName = text(spec.signerName);
  if (!options.allowLegacySignerName && signerName === LEGACY_UNKNOWN_SIGNER) {
    errors.push(invalid("spec.signerName", signerName, "the legacy signerName is not allowed via this API version"));
  } else {
    errors.push(...validateSignerName("spec.signerName", signerName));
  }
  if (typeof spec.expirationSeconds === "number" && spec.expirationSeconds < 600) {
    errors.push(invalid("spec.expirationSeconds", spec.expirationSeconds, "may not specify a duration less than 600 seconds (10 minutes)"));
  }
  errors.push(...validateConditions(obj, options));
  const problem = options.allowArbitraryCertificate ? undefined : certificateProblem(certificateOf(obj));
  if (problem) errors.push(invalid("status.certificate", "<certificate data>", problem));
  return errors;
}

export function validateCertificateSigningRequest(obj: KubeObject): FieldError[] {
  return validateObject(obj, optionsFor(obj, undefined));
}

const find = (obj: KubeObject, type: string) => conditionsOf(obj).filter((c) => c.type === type);

/** kube's validateCertificateSigningRequestUpdate; `subresource` picks the Status/Approval variant. */
export function validateCertificateSigningRequestUpdate(obj: KubeObject, old: KubeObject, subresource = ""): FieldError[] {
  const options = optionsFor(obj, old);
  options.allowSettingCertificate = subresource === "status";
  options.allowSettingApprovalConditions = subresource === "approval";
  const errors = validateObject(obj, options);
  for (const type of ["Approved", "Denied", "Failed"]) {
    if (find(obj, type).length < find(old, type).length) {
      errors.push(forbidden("status.conditions", `updates may not remove a condition of type "${type}"`));
    }
  }
  if (!options.allowSettingApprovalConditions) {
    for (const type of ["Approved", "Denied"]) {
      const [before, after] = [find(old, type), find(obj, type)];
      if (after.length > before.length) errors.push(forbidden("status.conditions", `updates may not add a condition of type "${type}"`));
      else if (after.length === before.length && !deepEqual(before, after)) {
        errors.push(forbidden("status.conditions", `updates may not modify a condition of type "${type}"`));
      }
    }
  }
  if (certificateOf(obj) !== certificateOf(old)) {
    if (!options.allowSettingCertificate) errors.push(forbidden("status.certificate", "updates may not set certificate content"));
    else if (certificateOf(old) !== "") errors.push(forbidden("status.certificate", "updates may not modify existing certificate content"));
  }
  return errors;
}
