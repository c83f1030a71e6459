/**
 * kube's library.CostEstimator.EstimateCallCost (apiserver pkg/cel/library/cost.go, 1.26): the estimated cost of
 * kube's list, string-extension, regex and URL functions, with the size of their results. The coster adds the
 * arguments' own costs.
 */
import {
  add,
  fixed,
  MAX_UINT64,
  multiply,
  multiplyByCostFactor,
  type Range,
  REGEX_STRING_LENGTH_COST_FACTOR,
  STRING_TRAVERSAL_COST_FACTOR,
} from "./cost-estimate.ts";
import type { AstNode, CallEstimate } from "./cost.ts";
import type { SizeLookup } from "./cost-sizes.ts";

/** A node's computed size, else the estimator's by its path, else undefined. */
export function estimatedSize(node: AstNode, lookup: SizeLookup): Range | undefined {
  return node.computedSize ?? (node.path && node.path.length > 0 ? lookup.byPath(node.path) : undefined);
}

/** listElementNode: the items of a list, by path when the list has one (so maxLength applies). */
function listElement(list: AstNode): AstNode | undefined {
  if (list.type.kind !== "list") return undefined;
  return { path: list.path && [...list.path, "@items"], type: list.type.elem };
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** The size of replace()'s result: the most and fewest replacements times the replacement, plus what is kept. */
function replacedSize(size: Range, toReplace: Range, replaceWith: Range): Range {
  const count = { min: 0n, max: 0n };
  const retained = { min: 0n, max: 0n };
  if (toReplace.min === 0n) {
    // An empty search string surrounds every character with the replacement.
    count.max = size.max < MAX_UINT64 ? size.max + 1n : size.max;
    retained.max = size.max;
  } else if (replaceWith.max <= toReplace.min) {
    retained.max = size.max;
  } else {
    count.max = ceilDiv(size.max, toReplace.min);
  }
  if (toReplace.max === 0n) {
    count.min = size.min < MAX_UINT64 ? size.min + 1n : size.min;
    retained.min = size.min;
  } else if (toReplace.max <= replaceWith.min) {
    retained.min = size.min;
  } else {
    count.min = ceilDiv(size.min, toReplace.max);
  }
  return add(multiply(count, replaceWith), retained);
}

function constantInt(node: AstNode | undefined): bigint | undefined {
  const kind = node?.expr?.exprKind;
  if (kind?.case !== "constExpr") return undefined;
  const constant = kind.value.constantKind;
  return constant.case === "int64Value" || constant.case === "uint64Value" ? BigInt(constant.value) : undefined;
}

/** EstimateCallCost of kube's functions; undefined leaves the call to cel-go's own formulas. */
export function libraryCallCost(name: string, target: AstNode | undefined, args: AstNode[], lookup: SizeLookup): CallEstimate | undefined {
  const size = (node: AstNode) => estimatedSize(node, lookup) ?? lookup.unknown;
  const traversal = (range: Range, times = 1) => multiplyByCostFactor(range, times * STRING_TRAVERSAL_COST_FACTOR);
  switch (name) {
    case "isSorted":
    case "sum":
    case "max":
    case "min":
    case "indexOf":
    case "lastIndexOf": {
      if (!target) return undefined;
      const element = listElement(target);
      // A string target (indexOf, lastIndexOf) is one traversal.
      if (!element) return { cost: traversal(size(target)) };
      // One per element compared, plus traversing strings and bytes to compare them.
      let perElement = fixed(1);
      if (element.type.kind === "string" || element.type.kind === "bytes") perElement = add(perElement, traversal(size(element)));
      return { cost: multiply(size(target), perElement) };
    }
    case "url":
      return args.length === 1 ? { cost: traversal(size(args[0])) } : undefined;
    case "lowerAscii":
    case "upperAscii":
    case "substring":
    case "trim": {
      if (!target) return undefined;
      const length = size(target);
      return { cost: traversal(length), resultSize: length };
    }
    case "replace": {
      if (!target || args.length < 2) return undefined;
      const length = size(target);
      return { cost: traversal(length, 2), resultSize: replacedSize(length, size(args[0]), size(args[1])) };
    }
    case "split": {
      if (!target) return undefined;
      const length = size(target);
      // At worst every character is an item, unless a constant limit says fewer.
      const max = constantInt(args[1]) ?? length.max;
      return { cost: traversal(length, 2), resultSize: { min: 0n, max } };
    }
    case "join": {
      if (!target) return undefined;
      const items = size(target);
      const element = listElement(target);
      let length = element ? multiply(items, size(element)) : fixed(0);
      if (args.length > 0) {
        const separators = { min: items.min > 0n ? items.min - 1n : 0n, max: items.max > 0n ? items.max - 1n : 0n };
        length = add(length, multiply(size(args[0]), separators));
      }
      return { cost: traversal(length), resultSize: length };
    }
    case "find":
    case "findAll": {
      if (!target || args.length < 1) return undefined;
      const length = size(target);
      const text = traversal(add(length, fixed(1)));
      const pattern = multiplyByCostFactor(size(args[0]), REGEX_STRING_LENGTH_COST_FACTOR);
      // At worst every character is a match.
      return { cost: multiply(text, pattern), resultSize: { min: 0n, max: length.max } };
    }
  }
  return undefined;
}
