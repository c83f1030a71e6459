/**
 * managedFields after a non-apply write (create, update, patch, status writes): the writer comes to own what
 * it added or changed, under operation Update; others lose those fields and whatever was removed. Updates
 * never conflict. A `[{}]` list resets ownership first; an empty list or none keeps the stored entries; a
 * valid list replaces them (spec 4.6.5).
 */
import type { KubeObject } from "../../api/types.ts";
import { SchemaMismatchError } from "./_items.ts";
import { addedOrModifiedSinceZero } from "./compare.ts";
import { isEmptySet, union } from "./field-set.ts";
import {
  capUpdateManagers,
  decodeManagers,
  dropEmptyManagers,
  encodeManager,
  encodeManagers,
  isResetRequest,
  type ManagerEntry,
  managerId,
  type Managers,
} from "./managed-fields.ts";
import { dropMissingVersions, updateOtherManagers } from "./other-managers.ts";
import { type OwnershipScope, withinScope, withoutManagedFields, withoutServerOwned } from "./scope.ts";
import { VersionConversionError } from "./versions.ts";
import { zeroObject } from "./schema-type.ts";

/** No manager's identifier: every stored entry is another manager to the write (managedFieldsUpdater's "current-operation"). */
const CURRENT_OPERATION = "";

export interface UpdateRecord {
  manager: string;
  /** RFC 3339 time of the write. */
  now: string;
}

/**
 * The managedFields `next` should be stored with, given the stored object (null on create). Like kube's
 * UpdateNoErrors, a failure to compute ownership clears managedFields rather than failing the write. A create that
 * sent no managers is answered at once: only another version's manager can make the walk wait (for its conversion).
 */
export function managedFieldsAfterUpdate(
  live: KubeObject | null,
  next: KubeObject,
  record: UpdateRecord,
  scope: OwnershipScope,
): Record<string, unknown>[] | Promise<Record<string, unknown>[]> {
  try {
    const managers = startingManagers(live, next, scope);
    if (!live && managers.size === 0) return createdEntries(next, record, scope);
    return afterUpdate(live, next, managers, record, scope).catch(clearedOnMismatch);
  } catch (e) {
    return clearedOnMismatch(e);
  }
}

/** UpdateNoErrors: a field set that does not fit the schema, or a failed conversion, clears managedFields. */
function clearedOnMismatch(e: unknown): Record<string, unknown>[] {
  if (e instanceof SchemaMismatchError || e instanceof VersionConversionError) return [];
  throw e;
}

async function afterUpdate(
  live: KubeObject | null,
  next: KubeObject,
  managers: Managers,
  record: UpdateRecord,
  scope: OwnershipScope,
): Promise<Record<string, unknown>[]> {
  const before = live
    ? withoutManagedFields(live)
    : { apiVersion: next.apiVersion, kind: next.kind, ...zeroObject(scope.type) } as KubeObject;
  await dropMissingVersions(managers, before, scope);
  // kube's managedFieldsUpdater computes the write as an anonymous operation, so the writer's own earlier entry
  // loses what this write removes like any other manager's; what the write added or changed joins it after.
  const { own } = await updateOtherManagers(before, withoutManagedFields(next), managers, CURRENT_OPERATION, scope, true);
  const owned = withoutServerOwned(union(own.added, own.modified));
  if (!isEmptySet(owned)) {
    const identity = updater(record, scope);
    const id = managerId(identity);
    const previous = managers.get(id);
    managers.set(id, { ...identity, time: record.now, fields: previous ? union(previous.fields, owned) : owned });
  }
  dropEmptyManagers(managers);
  capUpdateManagers(managers);
  return encodeManagers(managers);
}

function updater(record: UpdateRecord, scope: OwnershipScope): Omit<ManagerEntry, "fields"> {
  return { manager: record.manager, operation: "Update", apiVersion: scope.apiVersion, subresource: scope.subresource || undefined };
}

/**
 * A create that sent no managers: there is no other manager to update, and the writer's entry owns what the create
 * added or changed against the kind's New() (kube's create handler calls UpdateNoErrors with liveObj = New()).
 */
function createdEntries(next: KubeObject, record: UpdateRecord, scope: OwnershipScope): Record<string, unknown>[] {
  const zero = { apiVersion: next.apiVersion, kind: next.kind, ...zeroObject(scope.type) };
  // A body without managedFields (the usual create) is walked as it is, not through a copy that leaves them out.
  const walked = next.metadata?.managedFields === undefined ? next : withoutManagedFields(next);
  const owned = withoutServerOwned(withinScope(addedOrModifiedSinceZero(zero, walked, scope.type), scope));
  return isEmptySet(owned) ? [] : [encodeManager({ ...updater(record, scope), time: record.now, fields: owned })];
}

/** kube's decodeLiveOrNew: subresource writes and unreadable or empty lists keep the stored entries. */
function startingManagers(live: KubeObject | null, next: KubeObject, scope: OwnershipScope): Managers {
  const stored = () => decodeOrEmpty(live?.metadata?.managedFields);
  if (scope.subresource) return stored();
  const sent = next.metadata?.managedFields;
  if (isResetRequest(sent)) return new Map();
  const decoded = decodeOrEmpty(sent);
  return decoded.size > 0 ? decoded : stored();
}

function decodeOrEmpty(list: unknown): Managers {
  try {
    return decodeManagers(list);
  } catch {
    return new Map();
  }
}
