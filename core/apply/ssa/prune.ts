/**
 * structured-merge-diff's Updater.prune: what an applier set last time and sets no more leaves the merged object,
 * unless a manager still owns it. Each step runs in the version its field set was recorded in: the last applied
 * set in its version (a missing one prunes nothing), every manager's set in that manager's version
 * (addBackOwnedItems), and what was removed is limited to the last applied set (addBackDanglingItems).
 */
import type { KubeObject } from "../../api/types.ts";
import { difference, emptySet, type FieldSet, intersection, isEmptySet, union, withNamedParents } from "./field-set.ts";
import type { ManagerEntry, Managers } from "./managed-fields.ts";
import { removePaths } from "./remove.ts";
import type { OwnershipScope } from "./scope.ts";
import { toFieldSet } from "./to-field-set.ts";
import { type Versioned, VersionViews } from "./versions.ts";

/** `merged` (in the write's version) without what `last` owned and no manager in `managers` owns now. */
export async function prune(merged: KubeObject, last: ManagerEntry, managers: Managers, scope: OwnershipScope): Promise<KubeObject> {
  if (isEmptySet(last.fields)) return merged;
  if (inOneVersion(last, managers, scope)) return pruneInOneVersion(merged, last.fields, managers, scope);
  const mergedViews = new VersionViews(merged, scope.apiVersion, scope.type, scope.converter);
  const mergedAtLast = await mergedViews.at(last.apiVersion, "failed to convert merged object to last applied version");
  if (mergedAtLast === undefined) return merged;
  let pruned: Versioned = { ...mergedAtLast, object: removed(mergedAtLast, withNamedParents(last.fields)) };
  for (const [apiVersion, owned] of ownedByVersion(managers)) {
    const mergedThere = await mergedViews.at(apiVersion, `failed to convert merged object at version ${apiVersion}`);
    const prunedThere = mergedThere &&
      await convertPruned(pruned, apiVersion, scope, `failed to convert pruned object at version ${apiVersion}`);
    if (!mergedThere || !prunedThere) continue;
    const kept = union(toFieldSet(prunedThere.object, prunedThere.type), owned);
    pruned = { ...mergedThere, object: removed(mergedThere, difference(fieldsOf(mergedThere), withNamedParents(kept))) };
  }
  const prunedAtLast = await convertPruned(pruned, last.apiVersion, scope, "failed to convert pruned object to last applied version");
  if (prunedAtLast === undefined) return merged;
  const dangling = intersection(difference(fieldsOf(mergedAtLast), fieldsOf(prunedAtLast)), withNamedParents(last.fields));
  const result = { ...mergedAtLast, object: removed(mergedAtLast, dangling) };
  // The write's own version is never missing.
  return (await convertPruned(result, scope.apiVersion, scope))!.object;
}

/**
 * With every set in the write's version the steps above come down to one removal: what the applier set last time,
 * less what any manager (the applier's new set included) owns. Spared the conversions and the walks of the whole
 * object they need, for the apply of every kind served in one version.
 */
function pruneInOneVersion(merged: KubeObject, lastFields: FieldSet, managers: Managers, scope: OwnershipScope): KubeObject {
  let owned = emptySet();
  for (const entry of managers.values()) owned = union(owned, entry.fields);
  return removePaths(merged, difference(withNamedParents(lastFields), withNamedParents(owned)), scope.type) as KubeObject;
}

function inOneVersion(last: ManagerEntry, managers: Managers, scope: OwnershipScope): boolean {
  if (last.apiVersion !== scope.apiVersion) return false;
  for (const entry of managers.values()) if (entry.apiVersion !== scope.apiVersion) return false;
  return true;
}

function removed(view: Versioned, paths: FieldSet): KubeObject {
  return removePaths(view.object, paths, view.type) as KubeObject;
}

function fieldsOf(view: Versioned): FieldSet {
  return withNamedParents(toFieldSet(view.object, view.type));
}

/** The union of the managers' sets per apiVersion (addBackOwnedItems). */
function ownedByVersion(managers: Managers): Map<string, FieldSet> {
  const byVersion = new Map<string, FieldSet>();
  for (const entry of managers.values()) {
    byVersion.set(entry.apiVersion, union(byVersion.get(entry.apiVersion) ?? emptySet(), entry.fields));
  }
  return byVersion;
}

async function convertPruned(view: Versioned, apiVersion: string, scope: OwnershipScope, prefix?: string): Promise<Versioned | undefined> {
  if (view.object.apiVersion === apiVersion) return view;
  return await new VersionViews(view.object, String(view.object.apiVersion), view.type, scope.converter).at(apiVersion, prefix);
}
