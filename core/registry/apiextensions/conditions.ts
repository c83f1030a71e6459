/** Setting a CRD status condition as kube's SetCRDCondition does: lastTransitionTime moves only when status changes. */
import { nowTimestamp } from "../object-meta.ts";
import type { CRDCondition, CustomResourceDefinition } from "./crd.ts";

export function withCondition(crd: CustomResourceDefinition, condition: CRDCondition): void {
  const status = crd.status ?? {};
  const conditions = status.conditions ?? [];
  const existing = conditions.find((c) => c.type === condition.type);
  const lastTransitionTime = existing && existing.status === condition.status ? existing.lastTransitionTime : nowTimestamp();
  const next = { ...condition, lastTransitionTime };
  status.conditions = existing ? conditions.map((c) => (c === existing ? next : c)) : [...conditions, next];
  crd.status = status;
}
