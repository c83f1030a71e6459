/**
 * CertificateSigningRequest writes as kube's pkg/registry/certificates/certificates/strategy.go shapes them: the
 * requester's identity replaces whatever spec.username/uid/groups/extra the client sent, a new request starts with
 * an empty status, and each write path changes only its own part (main resource: metadata; status: the
 * certificate and non-approval conditions; approval: the conditions).
 */
import type { KubeObject } from "../api/types.ts";
import type { UserInfo } from "../auth/user.ts";
import type { CertificateSigningRequest, CSRCondition } from "../api/certificates/mod.ts";
import { nowTimestamp } from "./object-meta.ts";
import { setStatus } from "./subresource-writes.ts";
import type { Strategy } from "./strategy.ts";

type CSR = CertificateSigningRequest;

/** PrepareForCreate: the identity is the requester's, never the client's say-so. */
function fillRequester(obj: KubeObject, user?: UserInfo): void {
  const csr = obj as CSR;
  const spec = { ...csr.spec };
  for (const field of ["username", "uid", "groups", "extra"] as const) delete spec[field];
  if (user) {
    spec.username = user.username;
    if (user.uid) spec.uid = user.uid;
    if (user.groups.length > 0) spec.groups = [...user.groups];
    if (user.extra && Object.keys(user.extra).length > 0) spec.extra = structuredClone(user.extra);
  }
  csr.spec = spec;
}

/** kube's populateConditionTimestamps: missing times become now, a condition keeping its type and status keeps its transition time. */
function withTimestamps(conditions: CSRCondition[], old: CSRCondition[]): CSRCondition[] {
  const now = nowTimestamp();
  return conditions.map((c) => {
    const next = { ...c };
    next.lastUpdateTime ||= now;
    next.lastTransitionTime ||= old.find((o) => o.type === c.type && o.status === c.status && o.lastTransitionTime)?.lastTransitionTime ??
      now;
    return next;
  });
}

/** kube's preserveConditionInstances: same number of instances of `type` → the stored ones stay as they were. */
function preserveInstances(conditions: CSRCondition[], old: CSRCondition[], type: string): CSRCondition[] {
  const oldOnes = old.filter((c) => c.type === type);
  if (conditions.filter((c) => c.type === type).length !== oldOnes.length) return conditions;
  let i = 0;
  return conditions.map((c) => (c.type === type ? oldOnes[i++]! : c));
}

function withStatus(obj: CSR, status: CSR["status"]): CSR {
  setStatus(obj, status);
  return obj;
}

function prepareForUpdate(next: KubeObject, current: KubeObject, subresource: string): KubeObject {
  const csr = next as CSR;
  const old = current as CSR;
  csr.spec = structuredClone(old.spec);
  const oldConditions = old.status?.conditions ?? [];
  const conditions = csr.status?.conditions ?? [];
  if (subresource === "status") {
    const kept = preserveInstances(preserveInstances(conditions, oldConditions, "Approved"), oldConditions, "Denied");
    return withStatus(csr, { ...csr.status, ...(kept.length > 0 ? { conditions: withTimestamps(kept, oldConditions) } : {}) });
  }
  if (subresource === "approval") {
    const status = structuredClone(old.status ?? {});
    delete status.conditions;
    return withStatus(csr, { ...status, ...(conditions.length > 0 ? { conditions: withTimestamps(conditions, oldConditions) } : {}) });
  }
  return withStatus(csr, structuredClone(old.status));
}

export const CSR_STRATEGY: Partial<Strategy> = {
  prepareForCreate: fillRequester,
  initialStatus: () => ({}),
  prepareForUpdate,
};
