/**
 * Element order of merged lists (kube's normalizeElementOrder): items named by the patch keep the patch's
 * order, items only the server has keep theirs, and the two are interleaved by the server's order.
 */
import { isPlainObject } from "../../api/types.ts";
import { badArgType, GO_MAP, noMergeKey } from "./errors.ts";

export type ElementKind = "map" | "scalar";

const DIRECTIVE = "$patch";

/** What identifies an element: its merge key value for objects, the value itself for scalars. */
function identity(item: unknown, mergeKey: string, kind: ElementKind): unknown {
  if (kind !== "map") return item;
  return isPlainObject(item) ? item[mergeKey] : undefined;
}

export function indexIn(list: readonly unknown[], item: unknown, mergeKey: string, kind: ElementKind): number {
  const wanted = identity(item, mergeKey, kind);
  return list.findIndex((candidate) => identity(candidate, mergeKey, kind) === wanted);
}

export function requireMergeKeys(mergeKey: string, ...lists: readonly unknown[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isPlainObject(item)) throw badArgType(GO_MAP, item);
      if (!Object.hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
    }
  }
}

/** Splits elements carrying `$patch: delete` from the others. */
export function splitDeletions(list: readonly unknown[]): { kept: unknown[]; deletions: unknown[] } {
  const kept: unknown[] = [];
  const deletions: unknown[] = [];
  for (const item of list) {
    if (!isPlainObject(item)) throw badArgType(GO_MAP, item);
    (item[DIRECTIVE] === "delete" ? deletions : kept).push(item);
  }
  return { kept, deletions };
}

/** Sorts `toSort` by the position of each element in `order`; elements `order` lacks go last, deletions after them. */
function sortByOrder(toSort: unknown[], order: readonly unknown[], mergeKey: string, kind: ElementKind): unknown[] {
  let deletions: unknown[] = [];
  if (kind === "map") {
    requireMergeKeys(mergeKey, toSort, [...order]);
    ({ kept: toSort, deletions } = splitDeletions(toSort));
  }
  const position = (item: unknown) => {
    const i = indexIn(order, item, mergeKey, kind);
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  return [
    ...toSort.map((item, i) => ({ item, i, at: position(item) })).sort((a, b) => a.at - b.at || a.i - b.i).map((e) => e.item),
    ...deletions,
  ];
}

/**
 * Interleaves server-only items into the patch items: a server item goes first only when both it and the
 * next patch item are on the server and it comes earlier there (so items new to the server lead).
 */
function interleave(
  serverOnly: unknown[],
  patchItems: unknown[],
  serverOrder: readonly unknown[],
  mergeKey: string,
  kind: ElementKind,
): unknown[] {
  const merged: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < serverOnly.length || j < patchItems.length) {
    if (j >= patchItems.length) merged.push(serverOnly[i++]);
    else if (i >= serverOnly.length) merged.push(patchItems[j++]);
    else {
      const left = indexIn(serverOrder, serverOnly[i], mergeKey, kind);
      const right = indexIn(serverOrder, patchItems[j], mergeKey, kind);
      merged.push(left >= 0 && right >= 0 && left < right ? serverOnly[i++] : patchItems[j++]);
    }
  }
  return merged;
}

export function normalizeElementOrder(
  patchItems: unknown[],
  serverOnly: unknown[],
  orders: { patch: readonly unknown[]; server: readonly unknown[] },
  mergeKey: string,
  kind: ElementKind,
): unknown[] {
  const sortedPatch = sortByOrder(patchItems, orders.patch, mergeKey, kind);
  const sortedServer = sortByOrder(serverOnly, orders.server, mergeKey, kind);
  return interleave(sortedServer, sortedPatch, orders.server, mergeKey, kind);
}

/** Splits `merged` into the elements `by` names and the others, keeping their order. */
export function partitionByPresence(
  merged: readonly unknown[],
  by: readonly unknown[],
  mergeKey: string,
  kind: ElementKind,
): { named: unknown[]; others: unknown[] } {
  if (kind === "map") requireMergeKeys(mergeKey, [...merged]);
  const named: unknown[] = [];
  const others: unknown[] = [];
  for (const item of merged) (indexIn(by, item, mergeKey, kind) >= 0 ? named : others).push(item);
  return { named, others };
}
