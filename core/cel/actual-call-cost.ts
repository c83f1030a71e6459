/**
 * The actual cost of one evaluated call as kube 1.26 charges it: kube's library.CostEstimator.CallCost (apiserver
 * pkg/cel/library/cost.go) by function name first, else cel-go v0.12's CostTracker.costCall (interpreter/runtimecost.go)
 * by the overload the checker resolved, else 1. Sizes are cel-go's actualSize: code points of a string, bytes of
 * bytes, entries of a list or map, 1 for the rest.
 */
import { isCelList, isCelMap } from "@bufbuild/cel";
import type { CelType } from "./types.ts";
import { REGEX_STRING_LENGTH_COST_FACTOR, STRING_TRAVERSAL_COST_FACTOR } from "./cost-estimate.ts";

/** CostTracker.actualSize: traits.Sizer's Size(), else 1. */
export function actualSize(value: unknown): number {
  if (typeof value === "string") {
    // deno-lint-ignore no-control-regex
    return /^[\x00-\x7f]*$/.test(value) ? value.length : [...value].length;
  }
  if (value instanceof Uint8Array) return value.length;
  if (isCelList(value) || isCelMap(value)) return value.size;
  return 1;
}

/** library traversalCost: a tenth of a string's bytes (truncated), the sum over a list's items or a map's entries, else 1. */
function traversalCost(value: unknown): number {
  if (typeof value === "string") return Math.trunc(new TextEncoder().encode(value).length * STRING_TRAVERSAL_COST_FACTOR);
  if (value instanceof Uint8Array) return Math.trunc(value.length * STRING_TRAVERSAL_COST_FACTOR);
  let cost = 0;
  if (isCelList(value)) {
    for (const item of value) cost += traversalCost(item);
    return cost;
  }
  if (isCelMap(value)) {
    for (const [key, item] of value) cost += traversalCost(key) + traversalCost(item);
    return cost;
  }
  return 1;
}

const traversal = (value: unknown, times = 1) => Math.ceil(actualSize(value) * times * STRING_TRAVERSAL_COST_FACTOR);

/** CostEstimator.CallCost of kube's libraries; args hold the target first, as cel-go passes them. */
function libraryCost(name: string, args: unknown[], result: unknown): number | undefined {
  switch (name) {
    case "isSorted":
    case "sum":
    case "max":
    case "min":
    case "indexOf":
    case "lastIndexOf":
      return args.length > 0 ? traversalCost(args[0]) : 0;
    case "url":
    case "lowerAscii":
    case "upperAscii":
    case "substring":
    case "trim":
      return args.length >= 1 ? traversal(args[0]) : undefined;
    case "replace":
    case "split":
      return args.length >= 1 ? traversal(args[0], 2) : undefined;
    case "join":
      return args.length >= 1 ? traversal(result, 2) : undefined;
    case "find":
    case "findAll":
      if (args.length < 2) return undefined;
      return Math.ceil((1 + actualSize(args[0])) * STRING_TRAVERSAL_COST_FACTOR) *
        Math.ceil(actualSize(args[1]) * REGEX_STRING_LENGTH_COST_FACTOR);
  }
  return undefined;
}

const ORDERINGS = new Set(["_<_", "_<=_", "_>_", "_>=_"]);

/** Whether the checker resolves a call over these static types to the one overload taking `kind` operands. */
function only(kind: string, types: CelType[]): boolean {
  return types.every((type) => type.kind === kind || type.kind === "dyn") && types.some((type) => type.kind === kind);
}

/**
 * The overload family of a call that costCall prices, as the planner knows it: the checker's overload id when only
 * one overload matches the declared types (planner.resolveFunction), else none. Families: a traversal of the first
 * operand (starts_with_string, ends_with_string, string_to_bytes, bytes_to_string), of the shorter operand (equals,
 * not_equals, the string and bytes orderings), of both (add_string, add_bytes), their product (contains_string),
 * in_list by the list's size, and matches_string.
 */
function costedOverload(name: string, target: CelType | undefined, args: CelType[]): string | undefined {
  switch (name) {
    case "startsWith":
    case "endsWith":
      return target ? "traversal" : undefined;
    case "contains":
      return target ? "contains_string" : undefined;
    case "matches":
      // The global matches() has its own overload id, "matches", which costCall does not price.
      return target ? "matches_string" : undefined;
    case "_==_":
    case "_!=_":
      return "shorter_traversal";
    case "bytes":
      return args.length === 1 && args[0].kind === "string" ? "traversal" : undefined;
    case "string":
      return args.length === 1 && args[0].kind === "bytes" ? "traversal" : undefined;
    case "@in":
      return args[1]?.kind === "list" ? "in_list" : undefined;
    case "_+_":
      return only("string", args) || only("bytes", args) ? "add_sized" : undefined;
  }
  if (ORDERINGS.has(name) && (only("string", args) || only("bytes", args))) return "shorter_traversal";
  return undefined;
}

/** The cost of a call to `name` with its target and argument values (target first) and its result. */
export function callCost(
  name: string,
  staticTarget: CelType | undefined,
  staticArgs: CelType[],
  values: unknown[],
  result: unknown,
): number {
  const library = libraryCost(name, values, result);
  if (library !== undefined) return library;
  switch (costedOverload(name, staticTarget, staticArgs)) {
    case "traversal":
      return traversal(values[0]);
    case "contains_string":
      return traversal(values[0]) * traversal(values[1]);
    case "in_list":
      return actualSize(values[1]);
    case "shorter_traversal":
      return Math.ceil(Math.min(actualSize(values[0]), actualSize(values[1])) * STRING_TRAVERSAL_COST_FACTOR);
    case "add_sized":
      return Math.ceil((actualSize(values[0]) + actualSize(values[1])) * STRING_TRAVERSAL_COST_FACTOR);
    case "matches_string":
      return Math.ceil((1 + actualSize(values[0])) * STRING_TRAVERSAL_COST_FACTOR) *
        Math.ceil(actualSize(values[1]) * REGEX_STRING_LENGTH_COST_FACTOR);
  }
  return 1;
}
