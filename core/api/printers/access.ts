/** Printers for RoleBindings, ClusterRoleBindings and CertificateSigningRequests. */
import type { KubeObject } from "../types.ts";
import { AGE_COLUMN, column, definePrinter, NAME_COLUMN, wideColumn } from "./_printer.ts";
import { ageOf, humanDuration } from "./duration.ts";

interface Binding extends KubeObject {
  roleRef?: { kind?: string; name?: string };
  subjects?: { kind: string; name: string; namespace?: string }[];
}

interface CertificateSigningRequest extends KubeObject {
  spec?: { signerName?: string; username?: string; expirationSeconds?: number | null };
  status?: { conditions?: { type: string }[]; certificate?: string };
}

/** rbac.SubjectsStrings: users, groups and "namespace/name" service accounts, each ", "-joined. */
function subjectCells(subjects: Binding["subjects"]): string[] {
  const names = (kind: string, format: (s: { name: string; namespace?: string }) => string) =>
    (subjects ?? []).filter((s) => s.kind === kind).map(format).join(", ");
  return [names("User", (s) => s.name), names("Group", (s) => s.name), names("ServiceAccount", (s) => `${s.namespace ?? ""}/${s.name}`)];
}

export const roleBindingPrinter = definePrinter<Binding>(
  [
    NAME_COLUMN,
    column("Role", "The role granted, as kind/name"),
    AGE_COLUMN,
    wideColumn("Users", "Users bound"),
    wideColumn("Groups", "Groups bound"),
    wideColumn("ServiceAccounts", "Service accounts bound"),
  ],
  (binding, now) => [
    binding.metadata.name,
    `${binding.roleRef?.kind ?? ""}/${binding.roleRef?.name ?? ""}`,
    ageOf(binding, now),
    ...subjectCells(binding.subjects),
  ],
);

/** extractCSRStatus: Denied, else Approved, else Pending; then ",Failed" and ",Issued" when they apply. */
function csrCondition(csr: CertificateSigningRequest): string {
  const types = new Set((csr.status?.conditions ?? []).map((c) => c.type));
  let status = types.has("Denied") ? "Denied" : types.has("Approved") ? "Approved" : "Pending";
  if (types.has("Failed")) status += ",Failed";
  if (csr.status?.certificate) status += ",Issued";
  return status;
}

export const certificateSigningRequestPrinter = definePrinter<CertificateSigningRequest>(
  [
    NAME_COLUMN,
    AGE_COLUMN,
    column("SignerName", "The signer asked to sign"),
    column("Requestor", "The user who made the request"),
    column("RequestedDuration", "Requested validity of the certificate"),
    column("Condition", "Approval and issuance state"),
  ],
  (csr, now) => {
    const seconds = csr.spec?.expirationSeconds;
    return [
      csr.metadata.name,
      ageOf(csr, now),
      csr.spec?.signerName || "<none>",
      csr.spec?.username ?? "",
      seconds === undefined || seconds === null ? "<none>" : humanDuration(seconds * 1000),
      csrCondition(csr),
    ];
  },
);
