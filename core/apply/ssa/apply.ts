/**
 * Server-side apply of a configuration to the live object (structured-merge-diff's Updater.Apply with kube's
 * fieldmanager wrappers): merge, drop what this applier no longer sets and nobody else owns, check conflicts
 * against other managers, then record the applier's ownership under operation Apply (spec 3.2, 4.6).
 */
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../../api/types.ts";
import { type FieldConflict, newApplyConflict } from "./conflict-error.ts";
import { hasPath } from "./field-set.ts";
import { fieldsStillAsLastApplied, KUBECTL_MANAGER, syncLastApplied } from "./last-applied.ts";
import { capUpdateManagers, decodeManagers, dropEmptyManagers, encodeManagers, managerId, type Managers } from "./managed-fields.ts";
import { mergeValues } from "./merge.ts";
import { dropMissingVersions, updateOtherManagers } from "./other-managers.ts";
import { prune } from "./prune.ts";
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
export async function applyConfiguration(
  live: KubeObject | null,
  config: KubeObject,
  request: ApplyRequest,
  scope: OwnershipScope,
): Promise<KubeObject> {
  try {
    return await applyOnce(live, config, request, scope);
  } catch (e) {
    // The client-side apply upgrade: kubectl may take fields still holding what `kubectl apply` last set.
    if (request.force || request.manager !== KUBECTL_MANAGER || live === null || !(e instanceof ConflictsFound)) throw unwrap(e);
    const allowed = fieldsStillAsLastApplied(live, scope.type);
    const blocking = allowed ? e.conflicts.filter((c) => !hasPath(allowed, c.path)) : e.conflicts;
    if (blocking.length > 0) throw newApplyConflict(blocking);
    return await applyOnce(live, config, { ...request, force: true }, scope);
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

async function applyOnce(live: KubeObject | null, config: KubeObject, request: ApplyRequest, scope: OwnershipScope): Promise<KubeObject> {
  const managers = live ? decodeManagers(live.metadata?.managedFields) : new Map() as Managers;
  const liveValue = live ? withoutManagedFields(live) : {} as KubeObject;
  if (live) await dropMissingVersions(managers, liveValue, scope);
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
  const merged = mergeValues(liveValue, config, scope.type) as KubeObject;
  managers.set(id, { ...identity, fields: applied });
  const result = previous ? await prune(merged, previous, managers, scope) : merged;
  const { conflicts } = await updateOtherManagers(liveValue, result, managers, id, scope, request.force);
  if (conflicts.length > 0 && !request.force) throw new ConflictsFound(conflicts);
  const changed = !isDeepStrictEqual(result, liveValue);
  managers.set(id, { ...identity, time: changed ? request.now : previous?.time, fields: withoutServerOwned(applied) });
  dropEmptyManagers(managers);
  capUpdateManagers(managers);
  const object = result;
  object.metadata = { ...object.metadata, managedFields: encodeManagers(managers) };
  if (request.manager === KUBECTL_MANAGER) syncLastApplied(object, config);
  return object;
}
