/**
 * Keeps the rules of aggregated ClusterRoles (those with aggregationRule.clusterRoleSelectors) equal to the
 * union of the rules of the ClusterRoles their selectors match, taken in name order without duplicates (kube's
 * clusterrole-aggregation controller). Chains (view → edit → admin) settle as each update triggers the next pass.
 */
import { isDeepStrictEqual } from "node:util";
import { isNotFound } from "../api/errors.ts";
import { labelSelectorFromObject, matchesLabels } from "../api/label-selector.ts";
import type { KubeObject } from "../api/types.ts";
import { aggregationSelectorsOf, RBAC_GROUP } from "../auth/rbac/policy-types.ts";
import type { Catalog } from "../registry/catalog.ts";
import { collectionPrefix } from "../registry/keys.ts";
import type { Registry } from "../registry/registry.ts";
import { logger } from "../log/mod.ts";
import { compareByteOrder } from "../api/byte-order.ts";

const log = logger("clusterrole-aggregation");

export interface ClusterRoleAggregation {
  stop(): void;
  /** Resolves when the pass scheduled by the last change is done (tests use it). */
  settled(): Promise<void>;
}

/** The rules `role` should have, or null when it is not aggregated. */
export function aggregatedRules(role: KubeObject, all: Iterable<KubeObject>): unknown[] | null {
  const selectors = aggregationSelectorsOf(role)?.map((s) => labelSelectorFromObject(s as Parameters<typeof labelSelectorFromObject>[0]));
  if (!selectors) return null;
  const sources = [...all]
    .filter((other) => other.metadata.name !== role.metadata.name && selectors.some((s) => matchesLabels(s, other.metadata.labels)))
    .sort((a, b) => compareByteOrder(String(a.metadata.name), String(b.metadata.name)));
  const rules: unknown[] = [];
  for (const source of sources) {
    for (const rule of Array.isArray(source.rules) ? source.rules : []) {
      if (!rules.some((have) => isDeepStrictEqual(have, rule))) rules.push(rule);
    }
  }
  return rules;
}

export async function startClusterRoleAggregation(registry: Registry, catalog: Catalog): Promise<ClusterRoleAggregation> {
  const store = registry.store(catalog.byGroupVersionResource(RBAC_GROUP, "v1", "clusterroles")!);
  const roles = new Map<string, KubeObject>();
  let pass: Promise<void> = Promise.resolve();
  let scheduled = false;

  const sync = async () => {
    scheduled = false;
    for (const role of [...roles.values()]) {
      const rules = aggregatedRules(role, roles.values());
      if (rules === null || isDeepStrictEqual(rules, role.rules ?? [])) continue;
      await store.update("", String(role.metadata.name), (current) => ({ ...current!, rules })).catch((e) => {
        if (!isNotFound(e)) log.error("clusterrole aggregation failed", e);
      });
    }
  };
  // Events arrive inside the commit; the pass runs after it, one at a time.
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    pass = pass.then(sync);
  };
  const follow = await registry.follow(collectionPrefix(store.type, ""), (event) => {
    const name = String(event.object.metadata.name);
    if (event.type === "DELETED") roles.delete(name);
    else roles.set(name, event.object);
    schedule();
  });
  schedule();
  return { stop: follow.stop, settled: () => pass };
}
