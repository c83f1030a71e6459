/**
 * metadata.managedFields entries (spec 2.3) as a map of managers to owned field sets, keyed like kube's
 * BuildManagerIdentifier: appliers by name (and subresource), updaters also by apiVersion.
 */
import { isPlainObject } from "../../api/types.ts";
import { type FieldSet, isEmptySet, union } from "./field-set.ts";
import { fromFieldsV1, toFieldsV1 } from "./fields-v1.ts";
import { compareByteOrder } from "../../api/byte-order.ts";

export type Operation = "Apply" | "Update";

export interface ManagerEntry {
  manager: string;
  operation: Operation;
  apiVersion: string;
  time?: string;
  subresource?: string;
  fields: FieldSet;
}

export type Managers = Map<string, ManagerEntry>;

/** kube's DefaultMaxUpdateManagers and the bucket older updates are folded into. */
const MAX_UPDATE_MANAGERS = 10;
const ANCIENT_CHANGES = "ancient-changes";

export function managerId(entry: Pick<ManagerEntry, "manager" | "operation" | "apiVersion" | "subresource">): string {
  const id: Record<string, string> = { manager: entry.manager, operation: entry.operation };
  if (entry.operation === "Update") id.apiVersion = entry.apiVersion;
  if (entry.subresource) id.subresource = entry.subresource;
  return JSON.stringify(id);
}

/** A list of only empty entries (`[{}]`) asks a non-apply write to clear all ownership (spec 4.6.5). */
export function isResetRequest(list: unknown): boolean {
  return Array.isArray(list) && list.length > 0 && list.every((e) => isPlainObject(e) && Object.keys(e).length === 0);
}

/** Parses managedFields; throws an Error when an entry is malformed. */
export function decodeManagers(list: unknown): Managers {
  const managers: Managers = new Map();
  if (list === undefined || list === null) return managers;
  if (!Array.isArray(list)) throw new Error("managedFields must be a list");
  for (const raw of list) {
    if (!isPlainObject(raw)) throw new Error("managedFields entries must be objects");
    const operation = raw.operation;
    if (operation !== "Apply" && operation !== "Update") throw new Error(`invalid operation ${String(operation)}`);
    if (raw.fieldsType !== undefined && raw.fieldsType !== "FieldsV1") throw new Error(`invalid fieldsType ${String(raw.fieldsType)}`);
    const entry: ManagerEntry = {
      manager: String(raw.manager ?? ""),
      operation,
      apiVersion: String(raw.apiVersion ?? ""),
      fields: fromFieldsV1(raw.fieldsV1 ?? {}),
    };
    if (typeof raw.time === "string") entry.time = raw.time;
    if (typeof raw.subresource === "string" && raw.subresource !== "") entry.subresource = raw.subresource;
    const id = managerId(entry);
    if (managers.has(id)) throw new Error(`duplicate manager entry ${id}`);
    managers.set(id, entry);
  }
  return managers;
}

/** Drops managers that own nothing (spec 3.2, last row). */
export function dropEmptyManagers(managers: Managers): void {
  for (const [id, entry] of managers) if (isEmptySet(entry.fields)) managers.delete(id);
}

function seconds(time: string | undefined): number {
  return time === undefined ? 0 : Math.floor(Date.parse(time) / 1000);
}

/** kube's capManagersManager: beyond ten Update managers the oldest fold into "ancient-changes" per apiVersion. */
export function capUpdateManagers(managers: Managers): void {
  if (managers.size <= MAX_UPDATE_MANAGERS) return;
  const updaters = [...managers.keys()].filter((id) => managers.get(id)!.operation === "Update");
  if (updaters.length <= MAX_UPDATE_MANAGERS) return;
  updaters.sort((a, b) => seconds(managers.get(a)!.time) - seconds(managers.get(b)!.time) || compareByteOrder(a, b));
  const firstOfVersion = new Map<string, string>();
  let count = updaters.length;
  for (let i = 0; i < updaters.length && count > MAX_UPDATE_MANAGERS; i++) {
    const entry = managers.get(updaters[i])!;
    const first = firstOfVersion.get(entry.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(entry.apiVersion, updaters[i]);
      continue;
    }
    const bucketId = managerId({ manager: ANCIENT_CHANGES, operation: "Update", apiVersion: entry.apiVersion });
    let bucket = managers.get(bucketId);
    if (!bucket) {
      bucket = { ...managers.get(first)!, manager: ANCIENT_CHANGES, subresource: undefined };
      managers.delete(first);
    }
    managers.set(bucketId, { ...bucket, fields: union(entry.fields, bucket.fields), time: entry.time });
    managers.delete(updaters[i]);
    count--;
  }
}

const OPERATION_ORDER: Record<Operation, number> = { Apply: 0, Update: 1 };

/** The managedFields list, sorted as kube sorts it: appliers first, then by time, manager, apiVersion, subresource. */
export function encodeManagers(managers: Managers): Record<string, unknown>[] {
  const entries = [...managers.values()].sort((p, q) =>
    OPERATION_ORDER[p.operation] - OPERATION_ORDER[q.operation] || seconds(p.time) - seconds(q.time) ||
    compareByteOrder(p.manager, q.manager) || compareByteOrder(p.apiVersion, q.apiVersion) ||
    compareByteOrder(p.subresource ?? "", q.subresource ?? "")
  );
  return entries.map(encodeManager);
}

/** One managedFields entry, its members in the order kube's ManagedFieldsEntry writes them. */
export function encodeManager(e: ManagerEntry): Record<string, unknown> {
  const out: Record<string, unknown> = { manager: e.manager, operation: e.operation, apiVersion: e.apiVersion };
  if (e.time !== undefined) out.time = e.time;
  out.fieldsType = "FieldsV1";
  out.fieldsV1 = toFieldsV1(e.fields);
  if (e.subresource) out.subresource = e.subresource;
  return out;
}
