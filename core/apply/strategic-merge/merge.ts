/**
 * The merge of a strategic merge patch into an object (kube's mergeMap / mergeSlice with the server's
 * options: parallel lists merged, unmatched nulls ignored). Works in place on copies made by mod.ts.
 */
import { goPrintValue } from "../../api/go-values.ts";
import { isPlainObject } from "../../api/types.ts";
import type { SchemaLookup } from "../../schema/lookup.ts";
import type { Schema } from "../../schema/types.ts";
import {
  badArgType,
  badPatchFormatForPrimitiveList,
  badPatchFormatForSetElementOrderList,
  badPatchType,
  GO_SLICE,
  internalMergeError,
  noListOfLists,
  noMergeKey,
} from "./errors.ts";
import { type ElementKind, normalizeElementOrder, partitionByPresence } from "./order.ts";
import { elementSchema, type FieldPatchMeta, fieldPatchMeta } from "./patch-meta.ts";
import { applyRetainKeys } from "./retain-keys.ts";
import { checkAgainstElementOrder } from "./set-element-order.ts";
import { setMember } from "../../api/json-member.ts";

type JsonMap = Record<string, unknown>;

const DIRECTIVE = "$patch";
const DELETE_FROM_PRIMITIVE_LIST = "$deleteFromPrimitiveList";
const SET_ELEMENT_ORDER = "$setElementOrder";

function valueKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "list";
  return isPlainObject(value) ? "map" : typeof value;
}

/** The list field a parallel directive key ("$setElementOrder/containers") is about. */
function directiveTarget(key: string, prefix: string): string {
  const slash = key.indexOf("/");
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    throw prefix === SET_ELEMENT_ORDER ? badPatchFormatForSetElementOrderList() : badPatchFormatForPrimitiveList();
  }
  return key.slice(slash + 1);
}

export function mergeMap(original: JsonMap | undefined, patch: JsonMap, schema: Schema | undefined, lookup: SchemaLookup): JsonMap {
  if (Object.hasOwn(patch, DIRECTIVE)) return mapDirective(patch);
  const result = original ?? {};
  applyRetainKeys(result, patch);
  mergeOrderedLists(result, patch, schema, lookup);
  for (const [patchKey, patchValue] of Object.entries(patch)) {
    const isDeleteList = patchKey.startsWith(DELETE_FROM_PRIMITIVE_LIST);
    const key = isDeleteList ? directiveTarget(patchKey, DELETE_FROM_PRIMITIVE_LIST) : patchKey;
    if (patchValue === null) {
      delete result[key];
      continue;
    }
    if (!Object.hasOwn(result, key)) {
      // Nothing to delete from; anything else is taken as it is.
      if (!isDeleteList) setMember(result, key, patchValue);
      continue;
    }
    const current = result[key];
    const kind = valueKind(current);
    if (kind !== valueKind(patchValue) || (kind !== "map" && kind !== "list")) {
      setMember(result, key, patchValue);
      continue;
    }
    const meta = fieldPatchMeta(lookup, schema, key);
    setMember(
      result,
      key,
      kind === "map"
        ? (meta.strategy === "replace" ? patchValue : mergeMap(current as JsonMap, patchValue as JsonMap, meta.schema, lookup))
        : mergeListField(current as unknown[], patchValue as unknown[], meta, isDeleteList, lookup),
    );
  }
  return result;
}

function mapDirective(patch: JsonMap): JsonMap {
  const directive = patch[DIRECTIVE];
  if (directive === "replace") {
    delete patch[DIRECTIVE];
    return patch;
  }
  if (directive === "delete") return {};
  throw badPatchType(directive, patch);
}

function mergeListField(
  original: unknown[],
  patch: unknown[],
  meta: FieldPatchMeta,
  isDeleteList: boolean,
  lookup: SchemaLookup,
): unknown[] {
  if (meta.strategy !== "merge") return patch;
  return mergeList(original, patch, { schema: elementSchema(lookup, meta.schema), mergeKey: meta.mergeKey, isDeleteList }, lookup);
}

/** The kind shared by every element of the lists; mixed kinds and nested lists are refused as kube does. */
export function elementKind(...lists: readonly unknown[][]): ElementKind | undefined {
  let found: string | undefined;
  for (const item of lists.flat()) {
    const kind = valueKind(item);
    if (found === undefined) {
      if (kind === "list") throw noListOfLists();
      found = kind;
    } else if (kind !== found) {
      throw internalMergeError(`list element types are not identical: ${goPrintValue(lists)}`);
    }
  }
  if (found === undefined) return undefined;
  return found === "map" ? "map" : "scalar";
}

interface ListMeta {
  schema: Schema | undefined;
  mergeKey: string;
  isDeleteList: boolean;
}

function mergeList(original: unknown[], patch: unknown[], meta: ListMeta, lookup: SchemaLookup): unknown[] {
  const kind = elementKind(original, patch);
  if (kind === undefined) return original;
  let merged: unknown[];
  let serverOrder = original;
  let patchOrder = patch;
  if (kind === "scalar") {
    if (meta.isDeleteList) return original.filter((item) => !patch.includes(item));
    merged = [...new Set([...original, ...patch])];
  } else {
    if (!meta.mergeKey) throw internalMergeError("cannot merge lists without merge key for type struct");
    ({ original: serverOrder, patch: patchOrder } = applyListDirectives(original, patch, meta.mergeKey));
    merged = mergeByKey(serverOrder, patchOrder, meta, lookup);
  }
  const { named, others } = partitionByPresence(merged, patchOrder, meta.mergeKey, kind);
  return normalizeElementOrder(named, others, { patch: patchOrder, server: serverOrder }, meta.mergeKey, kind);
}

/** `$patch: delete` elements remove their match from the original; `$patch: replace` makes the patch the list. */
function applyListDirectives(original: unknown[], patch: unknown[], mergeKey: string): { original: unknown[]; patch: unknown[] } {
  const plain: unknown[] = [];
  let replace = false;
  let kept = original;
  for (const item of patch) {
    const element = item as JsonMap;
    if (!Object.hasOwn(element, DIRECTIVE)) {
      plain.push(item);
      continue;
    }
    const directive = element[DIRECTIVE];
    if (directive === "delete") {
      if (!Object.hasOwn(element, mergeKey)) throw noMergeKey(element, mergeKey);
      kept = kept.filter((candidate) => !isPlainObject(candidate) || candidate[mergeKey] !== element[mergeKey]);
    } else if (directive === "replace") {
      replace = true;
    } else if (directive === "merge") {
      throw internalMergeError("merging lists cannot yet be specified in the patch");
    } else {
      throw badPatchType(directive, element);
    }
  }
  return replace ? { original: plain, patch: [] } : { original: kept, patch: plain };
}

function mergeByKey(original: unknown[], patch: unknown[], meta: ListMeta, lookup: SchemaLookup): unknown[] {
  const merged = [...original];
  for (const item of patch) {
    const element = item as JsonMap;
    if (!Object.hasOwn(element, meta.mergeKey)) throw noMergeKey(element, meta.mergeKey);
    const at = merged.findIndex((candidate, i) => {
      if (!isPlainObject(candidate)) throw internalMergeError(`value for key ${i} is not a map.`);
      return Object.hasOwn(candidate, meta.mergeKey) && candidate[meta.mergeKey] === element[meta.mergeKey];
    });
    if (at >= 0) merged[at] = mergeMap(merged[at] as JsonMap, element, meta.schema, lookup);
    else merged.push(item);
  }
  return merged;
}

/** `$setElementOrder/<list>`: merges that list now and orders it as the directive says (kube's mergePatchIntoOriginal). */
function mergeOrderedLists(result: JsonMap, patch: JsonMap, schema: Schema | undefined, lookup: SchemaLookup): void {
  for (const [directiveKey, order] of Object.entries(patch)) {
    if (!directiveKey.startsWith(SET_ELEMENT_ORDER)) continue;
    delete patch[directiveKey];
    if (!Array.isArray(order)) throw badArgType(GO_SLICE, order);
    const key = directiveTarget(directiveKey, SET_ELEMENT_ORDER);
    const foundOriginal = Object.hasOwn(result, key);
    const foundPatch = Object.hasOwn(patch, key);
    const original = foundOriginal ? result[key] : [];
    const patchList = foundPatch ? patch[key] : [];
    if (!Array.isArray(original)) throw badArgType(GO_SLICE, original);
    if (!Array.isArray(patchList)) throw badArgType(GO_SLICE, patchList);
    const meta = fieldPatchMeta(lookup, schema, key);
    checkAgainstElementOrder(patchList, order, meta.mergeKey);
    if (!foundOriginal && !foundPatch) continue;
    const merged = foundOriginal && foundPatch
      ? mergeListField(original, patchList, meta, false, lookup)
      : foundPatch
      ? patchList
      : original;
    const kind = elementKind(original, patchList);
    if (kind !== undefined) {
      const mergeKey = kind === "map" ? meta.mergeKey : "";
      const { named, others } = partitionByPresence(merged, order, mergeKey, kind);
      setMember(result, key, normalizeElementOrder(named, others, { patch: order, server: original }, mergeKey, kind));
    } else {
      setMember(result, key, merged);
    }
    delete patch[key];
  }
}
