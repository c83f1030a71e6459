/**
 * managedFields after a non-apply write (create, update, patch, status writes): the writer comes to own what
 * it added or changed, under operation Update; others lose those fields and whatever was removed. Updates
 * never conflict. A `[{}]` list resets ownership first; an empty list or none keeps the stored entries; a
 * valid list replaces them (spec 4.6.5).
 */
import type { KubeObject } from "../../api/types.ts";
import { SchemaMismatchError } from "./_items.ts";
import { addedOrModifiedSinceZero } from "./compare.ts";
import { type FieldSet, isEmptySet, union } from "./field-set.ts";
import {
  capUpdateManagers,
  decodeManagers,
  dropEmptyManagers,
  encodeManagers,
  isResetRequest,
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
 * UpdateNoErrors, a failure to compute ownership clears managedFields rather than failing the write.
 */
export async function managedFieldsAfterUpdate(
  live: KubeObject | null,
  next: KubeObject,
  record: UpdateRecord,
  scope: OwnershipScope,
): Promise<Record<string, unknown>[]> {
  try {
    const managers = startingManagers(live, next, scope);
    const before = live
      ? withoutManagedFields(live)
      : { apiVersion: next.apiVersion, kind: next.kind, ...zeroObject(scope.type) } as KubeObject;
    let owned: FieldSet;
    if (!live && managers.size === 0) {
      // A create with no managers to update: the writer owns what it added or changed against the kind's New().
      owned = withoutServerOwned(withinScope(addedOrModifiedSinceZero(before, withoutManagedFields(next), scope.type), scope));
    } else {
      await dropMissingVersions(managers, before, scope);
      // kube's managedFieldsUpdater computes the write as an anonymous operation, so the writer's own earlier entry
      // loses what this write removes like any other manager's; what the write added or changed joins it after.
      const { own } = await updateOtherManagers(before, withoutManagedFields(next), managers, CURRENT_OPERATION, scope, true);
      owned = withoutServerOwned(union(own.added, own.modified));
    }
    if (!isEmptySet(owned)) {
      const identity = {
        manager: record.manager,
        operation: "Update" as const,
        apiVersion: scope.apiVersion,
        subresource: scope.subresource || undefined,
      };
      const id = managerId(identity);
      const previous = managers.get(id);
      managers.set(id, { ...identity, time: record.now, fields: previous ? union(previous.fields, owned) : owned });
    }
    dropEmptyManagers(managers);
    capUpdateManagers(managers);
    return encodeManagers(managers);
  } catch (e) {
    // UpdateNoErrors: a field set that does not fit the schema, or a failed conversion, clears managedFields.
    if (e instanceof SchemaMismatchError || e instanceof VersionConversionError) return [];
    throw e;
  }
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
