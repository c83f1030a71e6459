/**
 * Consistency of a `$setElementOrder` list with the patch list it orders (kube's validatePatchWithSetOrderList,
 * mergeKeyValueEqual).
 */
import { isPlainObject } from "../../api/types.ts";
import { goPrintValue } from "../../api/go-values.ts";
import { badArgType, GO_MAP, internalMergeError, noMergeKey } from "./errors.ts";
import { splitDeletions } from "./order.ts";

function sameElement(a: unknown, b: unknown, mergeKey: string): boolean {
  if (!mergeKey) return a === b;
  if (!isPlainObject(a)) throw badArgType(GO_MAP, a);
  if (!isPlainObject(b)) throw badArgType(GO_MAP, b);
  if (!Object.hasOwn(a, mergeKey)) throw noMergeKey(a, mergeKey);
  if (!Object.hasOwn(b, mergeKey)) throw noMergeKey(b, mergeKey);
  return a[mergeKey] === b[mergeKey];
}

/** The patch's elements (deletions and directives aside) must appear in the order list, in the same relative order. */
export function checkAgainstElementOrder(patchList: readonly unknown[], order: readonly unknown[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  const kept = mergeKey ? splitDeletions(patchList).kept : [...patchList];
  let p = 0;
  let o = 0;
  while (p < kept.length && o < order.length) {
    if (isPlainObject(kept[p]) && Object.hasOwn(kept[p] as object, "$patch")) {
      p++;
      continue;
    }
    if (sameElement(kept[p], order[o], mergeKey)) p++;
    o++;
  }
  if (p < kept.length) {
    throw internalMergeError(
      `The order in patch list:\n${goPrintValue(patchList)}\n doesn't match $setElementOrder list:\n${goPrintValue(order)}\n`,
    );
  }
}
