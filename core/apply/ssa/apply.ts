/**
 * Server-side apply of a configuration to the live object (structured-merge-diff's Updater.Apply with kube's
 * fieldmanager wrappers): merge, drop what this applier no longer sets and nobody else owns, check conflicts
 * against other managers, then record the applier's ownership under operation Apply (spec 3.2, 4.6).
 */
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../../api/types.ts";
import { compareValues } from "./compare.ts";
import { type FieldConflict, newApplyConflict } from "./conflict-error.ts";
import { difference, emptySet, type FieldSet, hasPath, intersection, memberPaths, union, withNamedParents } from "./field-set.ts";
import { fieldsStillAsLastApplied, KUBECTL_MANAGER, syncLastApplied } from "./last-applied.ts";
import { capUpdateManagers, decodeManagers, dropEmptyManagers, encodeManagers, managerId, type Managers } from "./managed-fields.ts";
import { mergeValues } from "./merge.ts";
import { removePaths } from "./remove.ts";
import { type OwnershipScope, withinScope, withoutManagedFields, withoutServerOwned } from "./scope.ts";
import { toFieldSet } from "./to-field-set.ts";

export interface ApplyRequest {
  manager: string;
  /** force=true: take the conflicting fields from their owners instead of failing. */
  force: boolean;
  /** RFC 3339 time of the write. */
  now: string;
}

/**
 * The object after applying `config` to `live` (null when the object does not exist yet), with its
 * managedFields. Throws kube's 409 apply conflict when another manager owns a field whose value changes.
 */
export function applyConfiguration(live: KubeObject | null, config: KubeObject, request: ApplyRequest, scope: OwnershipScope): KubeObject {
  try {
    return applyOnce(live, config, request, scope);
  } catch (e) {
    // The client-side apply upgrade: kubectl may take fields still holding what `kubectl apply` last set.
    if (request.force || request.manager !== KUBECTL_MANAGER || live === null || !(e instanceof ConflictsFound)) throw unwrap(e);
    const allowed = fieldsStillAsLastApplied(live, scope.type);
    const blocking = allowed ? e.conflicts.filter((c) => !hasPath(allowed, c.path)) : e.conflicts;
    if (blocking.length > 0) throw newApplyConflict(blocking);
    return applyOnce(live, config, { ...request, force: true }, scope);
  }
}

class ConflictsFound extends Error {
  readonly conflicts: FieldConflict[];
  constructor(conflicts: FieldConflict[]) {
    super("apply conflicts");
    this.conflicts = conflicts;
  }
}

function unwrap(e: unknown): unknown {
  return e instanceof ConflictsFound ? newApplyConflict(e.conflicts) : e;
}

function applyOnce(live: KubeObject | null, config: KubeObject, request: ApplyRequest, scope: OwnershipScope): KubeObject {
  const managers = live ? decodeManagers(live.metadata?.managedFields) : new Map() as Managers;
  const liveValue = live ? withoutManagedFields(live) : {};
  const identity = {
    manager: request.manager,
    operation: "Apply" as const,
    apiVersion: scope.apiVersion,
    subresource: scope.subresource || undefined,
  };
  const id = managerId(identity);
  const previous = managers.get(id);
  // Identity metadata stays in the applier's set while pruning so that metadata itself is never dropped.
  const applied = withinScope(toFieldSet(config, scope.type), scope);
  const merged = mergeValues(liveValue, config, scope.type);
  const others = [...managers].filter(([other]) => other !== id);
  const result = previous ? prune(merged, previous.fields, union(applied, unionAll(others.map(([, e]) => e.fields))), scope) : merged;
  const changes = compareValues(liveValue, result, scope.type);
  const touched = withinScope(union(changes.added, changes.modified), scope);
  const removed = withinScope(changes.removed, scope);
  const conflicts = others.flatMap(([other, entry]) =>
    memberPaths(intersection(entry.fields, touched)).map((path) => ({ managerId: other, path }))
  );
  if (conflicts.length > 0 && !request.force) throw new ConflictsFound(conflicts);
  for (const [, entry] of others) entry.fields = difference(difference(entry.fields, touched), removed);
  const changed = !isDeepStrictEqual(result, liveValue);
  managers.set(id, { ...identity, time: changed ? request.now : previous?.time, fields: withoutServerOwned(applied) });
  dropEmptyManagers(managers);
  capUpdateManagers(managers);
  const object = result as KubeObject;
  object.metadata = { ...object.metadata, managedFields: encodeManagers(managers) };
  if (request.manager === KUBECTL_MANAGER) syncLastApplied(object, config);
  return object;
}

function unionAll(sets: FieldSet[]): FieldSet {
  return sets.reduce(union, emptySet());
}

/** Removes what the applier set last time, sets no more, and nobody else owns (Updater.prune). */
function prune(merged: unknown, previouslyApplied: FieldSet, stillOwned: FieldSet, scope: OwnershipScope): unknown {
  const dropped = difference(withNamedParents(previouslyApplied), withNamedParents(stillOwned));
  return removePaths(merged, dropped, scope.type);
}
