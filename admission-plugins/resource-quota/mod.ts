/**
 * ResourceQuota: a create that would take a namespace's usage past a quota's hard limit is refused with kube's
 * "exceeded quota" message; accepted creates are charged to quota status (see ledger.ts), deletes refunded.
 */
import { admissionForbidden } from "../../core/admission/errors.ts";
import type { BuiltInAdmissionFactory, ValidationAttributes } from "../../core/admission/types.ts";
import { formatQuantity } from "../_quantity.ts";
import { QuotaLedger } from "./ledger.ts";
import { type Usage, unspecifiedCompute, usageOf } from "./usage.ts";

const resourceQuota: BuiltInAdmissionFactory = ({ registry, catalog }) => {
  const ledger = new QuotaLedger(registry, catalog);
  return {
    name: "ResourceQuota",
    handles: (a) => a.namespace !== "" && a.subresource === "" && (a.operation === "CREATE" || a.operation === "DELETE"),
    validate: (attributes) => ledger.serialize(attributes.namespace, () => charge(ledger, attributes)),
  };
};

async function charge(ledger: QuotaLedger, attributes: ValidationAttributes): Promise<void> {
  const object = attributes.object ?? attributes.oldObject!;
  const sign = attributes.operation === "DELETE" ? -1 : 1;
  const requested = usageOf(attributes.resource.group, attributes.resource.resource, object);
  for (let attempt = 0; attempt < ledger.maxAttempts; attempt++) {
    const changes = [];
    for (const quota of await ledger.quotas(attributes.namespace)) {
      const constrained = Object.keys(quota.hard).filter((key) => key in requested);
      if (constrained.length === 0) continue;
      if (sign > 0) check(attributes, String(quota.object.metadata.name), quota, requested, constrained);
      const used = { ...quota.used };
      for (const key of constrained) used[key] = Math.max(0, (used[key] ?? 0) + sign * requested[key]!);
      changes.push({ object: quota.object, used });
    }
    if (attributes.dryRun) return;
    let recorded = true;
    for (const change of changes) recorded = recorded && await ledger.record(change.object, change.used);
    if (recorded) return;
  }
  throw admissionForbidden(attributes, "status unknown for quota: too many concurrent changes, try again");
}

function check(attributes: ValidationAttributes, name: string, quota: { hard: Usage; used: Usage }, requested: Usage, constrained: string[]): void {
  if (attributes.resource.group === "" && attributes.resource.resource === "pods") {
    const missing = unspecifiedCompute(attributes.object!, constrained);
    if (missing.length > 0) throw admissionForbidden(attributes, `failed quota: ${name}: must specify ${missing.join(",")}`);
  }
  const exceeded = constrained.filter((key) => requested[key]! > 0 && (quota.used[key] ?? 0) + requested[key]! > quota.hard[key]!).sort();
  if (exceeded.length === 0) return;
  const print = (usage: Usage) => exceeded.map((key) => `${key}=${formatQuantity(usage[key] ?? 0)}`).join(",");
  throw admissionForbidden(attributes, `exceeded quota: ${name}, requested: ${print(requested)}, used: ${print(quota.used)}, limited: ${print(quota.hard)}`);
}

export default resourceQuota;
