/**
 * What a write does to the other managers' field sets (structured-merge-diff's Updater.update and
 * reconcileManagedFieldsWithSchemaChanges): each manager's set is compared, in the manager's own apiVersion, with
 * what the write added, changed and removed there; added or changed fields it owns are conflicts, removed ones
 * leave its set. Managers of a version the server does not know are dropped.
 */
import type { KubeObject } from "../../api/types.ts";
import { compareValues, type Comparison } from "./compare.ts";
import type { FieldConflict } from "./conflict-error.ts";
import { difference, intersection, memberPaths, union } from "./field-set.ts";
import type { Managers } from "./managed-fields.ts";
import { type OwnershipScope, withinScope } from "./scope.ts";
import { VersionViews } from "./versions.ts";

/** kube converts the live object to every manager's version first; a manager whose version is missing goes. */
export async function dropMissingVersions(managers: Managers, live: KubeObject, scope: OwnershipScope): Promise<void> {
  if (!hasOtherVersions(managers, scope)) return;
  const views = new VersionViews(live, scope.apiVersion, scope.type, scope.converter);
  for (const [id, entry] of managers) if (await views.at(entry.apiVersion) === undefined) managers.delete(id);
}

export interface ManagersUpdate {
  /** Fields of other managers the write adds or changes (in their versions); they keep them unless forced. */
  conflicts: FieldConflict[];
  /** The write's own changes, in its version, without the endpoint's reset fields (Comparison.ExcludeFields). */
  own: Comparison;
}

/**
 * Compares `before` and `after` in each other manager's version; with `force` (every non-apply write) their
 * conflicting fields move to the writer, and removed fields leave them, in place in `managers`.
 */
export async function updateOtherManagers(
  before: KubeObject,
  after: KubeObject,
  managers: Managers,
  writerId: string,
  scope: OwnershipScope,
  force: boolean,
): Promise<ManagersUpdate> {
  const own = withinScopeComparison(compareValues(before, after, scope.type), scope);
  const byVersion = new Map<string, Comparison | undefined>([[scope.apiVersion, own]]);
  // Made when a manager of another version is met: most writes have none.
  let views: { olds: VersionViews; news: VersionViews } | undefined;
  const conflicts: FieldConflict[] = [];
  const changes = new Map<string, Comparison>();
  for (const [id, entry] of managers) {
    if (id === writerId) continue;
    if (!byVersion.has(entry.apiVersion)) {
      views ??= {
        olds: new VersionViews(before, scope.apiVersion, scope.type, scope.converter),
        news: new VersionViews(after, scope.apiVersion, scope.type, scope.converter),
      };
      byVersion.set(entry.apiVersion, await compareIn(entry.apiVersion, views.olds, views.news, scope));
    }
    const compared = byVersion.get(entry.apiVersion);
    if (compared === undefined) {
      managers.delete(id);
      continue;
    }
    changes.set(id, compared);
    const touched = union(compared.added, compared.modified);
    for (const path of memberPaths(intersection(entry.fields, touched))) conflicts.push({ managerId: id, path });
  }
  if (conflicts.length > 0 && !force) return { conflicts, own };
  for (const [id, compared] of changes) {
    const entry = managers.get(id)!;
    entry.fields = difference(difference(entry.fields, union(compared.added, compared.modified)), compared.removed);
  }
  return { conflicts, own };
}

async function compareIn(
  apiVersion: string,
  olds: VersionViews,
  news: VersionViews,
  scope: OwnershipScope,
): Promise<Comparison | undefined> {
  const old = await olds.at(apiVersion, "failed to convert old object");
  if (old === undefined) return undefined;
  const next = await news.at(apiVersion, "failed to convert new object");
  if (next === undefined) return undefined;
  return withinScopeComparison(compareValues(old.object, next.object, next.type), scope);
}

function withinScopeComparison(compared: Comparison, scope: OwnershipScope): Comparison {
  return {
    added: withinScope(compared.added, scope),
    modified: withinScope(compared.modified, scope),
    removed: withinScope(compared.removed, scope),
  };
}

function hasOtherVersions(managers: Managers, scope: OwnershipScope): boolean {
  for (const entry of managers.values()) if (entry.apiVersion !== scope.apiVersion) return true;
  return false;
}
