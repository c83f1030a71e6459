/**
 * Sets of field paths (structured-merge-diff's fieldpath.Set) as a tree keyed by serialized path elements:
 * a node is a member when its path itself is in the set; its children hold longer paths.
 */
import { compareElements, type FieldPath, type PathElement } from "./path-element.ts";

export interface FieldSet {
  member: boolean;
  children: Map<PathElement, FieldSet>;
}

export function emptySet(): FieldSet {
  return { member: false, children: new Map() };
}

export function isEmptySet(set: FieldSet): boolean {
  return !set.member && set.children.size === 0;
}

export function insertPath(set: FieldSet, path: FieldPath): void {
  let node = set;
  for (const element of path) {
    let child = node.children.get(element);
    if (!child) {
      child = emptySet();
      node.children.set(element, child);
    }
    node = child;
  }
  node.member = true;
}

export function hasPath(set: FieldSet, path: FieldPath): boolean {
  let node: FieldSet | undefined = set;
  for (const element of path) {
    node = node.children.get(element);
    if (!node) return false;
  }
  return node.member;
}

/** The subtree under one element (fieldpath.Set.WithPrefix), empty when absent. */
export function childSet(set: FieldSet, element: PathElement): FieldSet {
  return set.children.get(element) ?? emptySet();
}

export function setFromPaths(paths: FieldPath[]): FieldSet {
  const set = emptySet();
  for (const path of paths) insertPath(set, path);
  return set;
}

/**
 * Combines two sets node by node; `keep` decides membership (never for a path in neither), empty nodes are dropped.
 * A subtree only one side has is kept whole or dropped whole, so it is shared rather than copied (sets are not
 * changed once built).
 */
function combine(a: FieldSet, b: FieldSet, keep: (inA: boolean, inB: boolean) => boolean): FieldSet {
  const out: FieldSet = { member: keep(a.member, b.member), children: new Map() };
  const keepsOnlyA = keep(true, false);
  const keepsOnlyB = keep(false, true);
  for (const [element, childA] of a.children) {
    const childB = b.children.get(element);
    const child = childB ? combine(childA, childB, keep) : keepsOnlyA ? childA : undefined;
    if (child && !isEmptySet(child)) out.children.set(element, child);
  }
  if (!keepsOnlyB) return out;
  for (const [element, childB] of b.children) if (!a.children.has(element)) out.children.set(element, childB);
  return out;
}

export function union(a: FieldSet, b: FieldSet): FieldSet {
  return combine(a, b, (x, y) => x || y);
}

/** Paths in `a` that are not in `b` (fieldpath.Set.Difference: by exact path, not by prefix). */
export function difference(a: FieldSet, b: FieldSet): FieldSet {
  return combine(a, b, (x, y) => x && !y);
}

export function intersection(a: FieldSet, b: FieldSet): FieldSet {
  return combine(a, b, (x, y) => x && y);
}

/** Removes every path under the top-level elements `drop` says no to (RecursiveDifference of whole fields). */
export function withoutTopLevel(set: FieldSet, drop: (element: PathElement) => boolean): FieldSet {
  const out: FieldSet = { member: set.member, children: new Map() };
  for (const [element, child] of set.children) if (!drop(element)) out.children.set(element, child);
  return out;
}

/** Paths in structured-merge-diff's iteration order: a node's members (sorted), then its children's paths. */
export function memberPaths(set: FieldSet, prefix: PathElement[] = []): PathElement[][] {
  const sorted = [...set.children.keys()].sort(compareElements);
  const paths: PathElement[][] = [];
  for (const element of sorted) if (set.children.get(element)!.member) paths.push([...prefix, element]);
  for (const element of sorted) {
    paths.push(...memberPaths({ member: false, children: set.children.get(element)!.children }, [...prefix, element]));
  }
  return paths;
}

/**
 * EnsureNamedFieldsAreMembers: a field that has owned paths below it counts as owned itself. Field elements
 * stand for struct fields here; a map key with children below it is rare enough (maps of structs) to share this.
 */
export function withNamedParents(set: FieldSet): FieldSet {
  const out: FieldSet = { member: set.member, children: new Map() };
  for (const [element, child] of set.children) {
    const converted = withNamedParents(child);
    if (element.startsWith("f:") && child.children.size > 0) converted.member = true;
    out.children.set(element, converted);
  }
  return out;
}
