/**
 * What changed between two versions of an object (structured-merge-diff's TypedValue.Compare): paths added,
 * removed, and leaf values modified. Added and removed include every path of a new or dropped subtree.
 */
import { isDeepStrictEqual } from "node:util";
import { isPlainObject } from "../../api/types.ts";
import { indexItems, keyType } from "./_items.ts";
import { emptySet, type FieldSet } from "./field-set.ts";
import { fieldElement, type FieldPath, type PathElement } from "./path-element.ts";
import { isGranular, type ListType, type MapType, resolveType, type TypeNode } from "./schema-type.ts";

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

/**
 * Records the changes below one value into `into`'s three nodes for it (the sets are built while descending, one
 * node per level, rather than by inserting each path from the root). `path` names the value in errors.
 */
function walk(before: unknown, after: unknown, declared: TypeNode, path: FieldPath, into: Comparison): void {
  const type = resolveType(declared, after ?? before);
  if (!isGranular(type)) {
    if (before === undefined && after !== undefined) into.added.member = true;
    else if (after === undefined && before !== undefined) into.removed.member = true;
    else if (before !== after && !isDeepStrictEqual(before, after)) into.modified.member = true;
    return;
  }
  const child = (element: PathElement, b: unknown, a: unknown, childType: TypeNode) => {
    if (b === undefined) {
      into.added.children.set(element, addedTree(a, childType, [...path, element]));
      return;
    }
    const nodes: Comparison = { added: emptySet(), removed: emptySet(), modified: emptySet() };
    walk(b, a, childType, [...path, element], nodes);
    if (a === undefined) nodes.removed.member = true;
    keepNonEmpty(into.added, element, nodes.added);
    keepNonEmpty(into.removed, element, nodes.removed);
    keepNonEmpty(into.modified, element, nodes.modified);
  };
  if (type.kind === "list") listChildren(before, after, type, path, child);
  else mapChildren(before, after, type, path, child);
}

/**
 * Comparison.added ∪ Comparison.modified of `compareValues(zero, after, type)`, made in one walk without the other
 * sets, for a `zero` that is a kind's zero object (zeroObject: kube's create compares the new object with the kind's
 * New()). What only `zero` has would be removed, which this set leaves out, so it is not walked: a zero object holds
 * only empty structs and nulls, so walking it could not fail either (no list to index, no undeclared field).
 */
export function addedOrModifiedSinceZero(zero: unknown, after: unknown, type: TypeNode): FieldSet {
  const into = emptySet();
  walkChanges(zero, after, type, [], into);
  return into;
}

function walkChanges(before: unknown, after: unknown, declared: TypeNode, path: FieldPath, into: FieldSet): void {
  const type = resolveType(declared, after ?? before);
  if (!isGranular(type)) {
    if (after !== undefined && before !== after && (before === undefined || !isDeepStrictEqual(before, after))) into.member = true;
    return;
  }
  if (type.kind === "list") {
    listChildren(before, after, type, path, (element, b, a, childType) => changeAt(into, path, element, b, a, childType));
    return;
  }
  // mapChildren's visits written out, without a callback: every granular node of a create passes here, most are maps.
  const b = isPlainObject(before) ? before : {};
  const a = isPlainObject(after) ? after : {};
  for (const key of Object.keys(b)) {
    if (a[key] !== undefined) changeAt(into, path, fieldElement(key), b[key], a[key], keyType(type, key, path));
  }
  for (const key of Object.keys(a)) {
    if (!Object.hasOwn(b, key)) changeAt(into, path, fieldElement(key), undefined, a[key], keyType(type, key, path));
  }
}

/** The changes below one child of `into`'s value, which only `before` or both have (walkChanges). */
function changeAt(into: FieldSet, path: FieldPath, element: PathElement, before: unknown, after: unknown, type: TypeNode): void {
  if (before === undefined) into.children.set(element, addedTree(after, type, [...path, element]));
  else if (after !== undefined) {
    const node = emptySet();
    walkChanges(before, after, type, [...path, element], node);
    keepNonEmpty(into, element, node);
  }
}

function keepNonEmpty(parent: FieldSet, element: PathElement, node: FieldSet): void {
  if (node.member || node.children.size > 0) parent.children.set(element, node);
}

/**
 * The changes below a value its parent did not have before: every path of it is added, nothing removed or modified.
 * It is the set walk would build for it, made as one tree (a create's whole object is such a value).
 */
function addedTree(after: unknown, declared: TypeNode, path: FieldPath): FieldSet {
  const node: FieldSet = { member: true, children: new Map() };
  const type = resolveType(declared, after);
  if (!isGranular(type)) return node;
  if (type.kind === "list") {
    for (const [element, item] of indexItems(type, after, path)) {
      node.children.set(element, addedTree(item, type.element, [...path, element]));
    }
  } else if (isPlainObject(after)) {
    for (const key of Object.keys(after)) {
      const element = fieldElement(key);
      node.children.set(element, addedTree(after[key], keyType(type, key, path), [...path, element]));
    }
  }
  return node;
}

type Visit = (element: PathElement, before: unknown, after: unknown, type: TypeNode) => void;

function mapChildren(before: unknown, after: unknown, type: MapType, path: FieldPath, visit: Visit): void {
  const b = isPlainObject(before) ? before : {};
  const a = isPlainObject(after) ? after : {};
  for (const key of Object.keys(b)) visit(fieldElement(key), b[key], a[key], keyType(type, key, path));
  for (const key of Object.keys(a)) if (!Object.hasOwn(b, key)) visit(fieldElement(key), undefined, a[key], keyType(type, key, path));
}

function listChildren(before: unknown, after: unknown, type: ListType, path: FieldPath, visit: Visit): void {
  const b = indexItems(type, before, path);
  const a = indexItems(type, after, path);
  for (const [element, item] of b) visit(element, item, a.get(element), type.element);
  for (const [element, item] of a) if (!b.has(element)) visit(element, undefined, item, type.element);
}
