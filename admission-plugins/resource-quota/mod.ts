/**
 * ResourceQuota: a create that would take a namespace's usage past a quota's hard limit is refused with kube's
 * "exceeded quota" message; accepted creates are charged to quota status (see ledger.ts), deletes refunded.
 */
import { admissionForbidden } from "../../core/admission/errors.ts";
import type { BuiltInAdmissionFactory, ValidationAttributes } from "../../core/admission/types.ts";
import {
  addQuantities,
  compareQuantities,
  formatQuantity,
  maxQuantity,
  subtractQuantities,
  ZERO_QUANTITY,
} from "../../core/api/quantity.ts";
import { QuotaLedger } from "./ledger.ts";
import { unspecifiedCompute, type Usage, usageOf } from "./usage.ts";

const resourceQuota: BuiltInAdmissionFactory = ({ registry, catalog }) => {
  const ledger = new QuotaLedger(registry, catalog);
  return {
    name: "ResourceQuota",
    handles: (a) => a.namespace !== "" && a.subresource === "" && (a.operation === "CREATE" || a.operation === "DELETE"),
    // kube's quotaEvaluator.checkAttributes answers at once when GetQuotas finds none (no limited resources configured):
    // without a quota there is nothing to charge, so the create does not queue behind the namespace's evaluations.
    validate: (attributes) =>
      ledger.surelyNone(attributes.namespace) ? undefined : ledger.serialize(attributes.namespace, () => charge(ledger, attributes)),
  };
};

async function charge(ledger: QuotaLedger, attributes: ValidationAttributes): Promise<void> {
  const object = attributes.object ?? attributes.oldObject!;
  const refund = attributes.operation === "DELETE";
  const requested = usageOf(attributes.resource.group, attributes.resource.resource, object);
  for (let attempt = 0; attempt < ledger.maxAttempts; attempt++) {
    const changes = [];
    for (const quota of await ledger.quotas(attributes.namespace)) {
      const constrained = Object.keys(quota.hard).filter((key) => key in requested);
      if (constrained.length === 0) continue;
      if (!refund) check(attributes, String(quota.object.metadata.name), quota, requested, constrained);
      const used = { ...quota.used };
      for (const key of constrained) {
        const before = used[key] ?? ZERO_QUANTITY;
        used[key] = refund
          ? maxQuantity(subtractQuantities(before, requested[key]!), ZERO_QUANTITY)
          : addQuantities(before, requested[key]!);
      }
      changes.push({ object: quota.object, used });
    }
    if (attributes.dryRun) return;
    let recorded = true;
    for (const change of changes) recorded = recorded && await ledger.record(change.object, change.used);
    if (recorded) return;
  }
  throw admissionForbidden(attributes, "status unknown for quota: too many concurrent changes, try again");
}

function check(
  attributes: ValidationAttributes,
  name: string,
  quota: { hard: Usage; used: Usage },
  requested: Usage,
  constrained: string[],
): void {
  if (attributes.resource.group === "" && attributes.resource.resource === "pods") {
    const missing = unspecifiedCompute(attributes.object!, constrained);
    if (missing.length > 0) throw admissionForbidden(attributes, `failed quota: ${name}: must specify ${missing.join(",")}`);
  }
  // kube's quota.LessThanOrEqual over the new usage, exact (no float rounding: 100m + 200m fits a 300m quota).
  const exceeded = constrained.filter((key) =>
    compareQuantities(requested[key]!, ZERO_QUANTITY) > 0 &&
    compareQuantities(addQuantities(quota.used[key] ?? ZERO_QUANTITY, requested[key]!), quota.hard[key]!) > 0
  ).sort();
  if (exceeded.length === 0) return;
  const print = (usage: Usage) => exceeded.map((key) => `${key}=${formatQuantity(usage[key] ?? ZERO_QUANTITY)}`).join(",");
  throw admissionForbidden(
    attributes,
    `exceeded quota: ${name}, requested: ${print(requested)}, used: ${print(quota.used)}, limited: ${print(quota.hard)}`,
  );
}

export default resourceQuota;
