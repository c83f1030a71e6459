/**
 * kube's CEL list library of 1.26 (k8s.io/apiserver/pkg/cel/library/lists.go): isSorted, sum, min, max, indexOf,
 * lastIndexOf on lists of comparable values.
 */
import { type CelFunc, type CelList, celMethod, CelScalar, type CelValue, listType } from "@bufbuild/cel";
import { celAdd, celCompare, celEquals } from "./_cel-ops.ts";

const LIST = listType(CelScalar.DYN);

function items(list: CelList): CelValue[] {
  return [...list];
}

function isSorted(list: CelList): boolean {
  const values = items(list);
  return values.every((value, i) => i === 0 || celCompare(values[i - 1], value) <= 0);
}

/** An empty list sums to int zero; kube picks the zero of the list's static type, which is int for untyped lists. */
function sum(list: CelList): CelValue {
  const values = items(list);
  if (values.length === 0) return 0n;
  return values.reduce((total, value) => celAdd(total, value));
}

function extreme(name: "min" | "max", list: CelList): CelValue {
  const values = items(list);
  // lists.go: "min called on empty list" / "max called on empty list"
  if (values.length === 0) throw new Error(`${name} called on empty list`);
  const better = name === "min" ? (c: number) => c < 0 : (c: number) => c > 0;
  return values.reduce((best, value) => better(celCompare(value, best)) ? value : best);
}

export const listFunctions: CelFunc[] = [
  celMethod("isSorted", LIST, [], CelScalar.BOOL, function () {
    return isSorted(this);
  }),
  celMethod("sum", LIST, [], CelScalar.DYN, function () {
    return sum(this);
  }),
  celMethod("min", LIST, [], CelScalar.DYN, function () {
    return extreme("min", this);
  }),
  celMethod("max", LIST, [], CelScalar.DYN, function () {
    return extreme("max", this);
  }),
  celMethod("indexOf", LIST, [CelScalar.DYN], CelScalar.INT, function (needle) {
    return BigInt(items(this).findIndex((value) => celEquals(value, needle)));
  }),
  celMethod("lastIndexOf", LIST, [CelScalar.DYN], CelScalar.INT, function (needle) {
    return BigInt(items(this).findLastIndex((value) => celEquals(value, needle)));
  }),
];
