/**
 * What changed between two versions of an object (structured-merge-diff's TypedValue.Compare): paths added,
 * removed, and leaf values modified. Added and removed include every path of a new or dropped subtree.
 */
import { isDeepStrictEqual } from "node:util";
import { isPlainObject } from "../../api/types.ts";
import { indexItems, keyType } from "./_items.ts";
import { emptySet, type FieldSet, insertPath } from "./field-set.ts";
import { fieldElement, type PathElement } from "./path-element.ts";
import { isGranular, resolveType, type TypeNode } from "./schema-type.ts";

export interface Comparison {
  added: FieldSet;
  removed: FieldSet;
  modified: FieldSet;
}

export function compareValues(before: unknown, after: unknown, type: TypeNode): Comparison {
  const result: Comparison = { added: emptySet(), removed: emptySet(), modified: emptySet() };
  walk(before, after, type, [], result);
  return result;
}

function walk(before: unknown, after: unknown, declared: TypeNode, path: PathElement[], result: Comparison): void {
  const type = resolveType(declared, after ?? before);
  if (!isGranular(type)) {
    if (before === undefined && after !== undefined) insertPath(result.added, path);
    else if (after === undefined && before !== undefined) insertPath(result.removed, path);
    else if (!isDeepStrictEqual(before, after)) insertPath(result.modified, path);
    return;
  }
  const children = type.kind === "list" ? listChildren(before, after, type, path) : mapChildren(before, after, type, path);
  for (const { element, before: b, after: a, type: childType } of children) {
    const childPath = [...path, element];
    walk(b, a, childType, childPath, result);
    if (b === undefined) insertPath(result.added, childPath);
    else if (a === undefined) insertPath(result.removed, childPath);
  }
}

interface Child {
  element: PathElement;
  before: unknown;
  after: unknown;
  type: TypeNode;
}

function mapChildren(before: unknown, after: unknown, type: TypeNode & { kind: "map" }, path: PathElement[]): Child[] {
  const b = isPlainObject(before) ? before : {};
  const a = isPlainObject(after) ? after : {};
  const keys = new Set([...Object.keys(b), ...Object.keys(a)]);
  return [...keys].map((key) => ({ element: fieldElement(key), before: b[key], after: a[key], type: keyType(type, key, path) }));
}

function listChildren(before: unknown, after: unknown, type: TypeNode & { kind: "list" }, path: PathElement[]): Child[] {
  const b = indexItems(type, before, path);
  const a = indexItems(type, after, path);
  const elements = new Set([...b.keys(), ...a.keys()]);
  return [...elements].map((element) => ({ element, before: b.get(element), after: a.get(element), type: type.element }));
}
