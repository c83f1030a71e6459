/**
 * A rule's estimated cost as cel-go v0.12's checker.Cost computes it (checker/cost.go, the version kube 1.26 uses)
 * with kube's library.CostEstimator (apiserver pkg/cel/library/cost.go) for kube's functions: identifiers and
 * field selections on objects and maps 1, constants 0, list/map/message literals 10/30/40, has() 0, comprehensions
 * their loop condition and step times the range's size, and per overload the formulas of functionCost.
 * Sizes come from computed results and literals, else by field path from a SizeLookup.
 */
import type { parse } from "@bufbuild/cel";
import type { CelType } from "./types.ts";
import {
  add,
  fixed,
  multiply,
  multiplyByCostFactor,
  type Range,
  REGEX_STRING_LENGTH_COST_FACTOR,
  STRING_TRAVERSAL_COST_FACTOR,
  sum,
  union,
  ZERO,
} from "./cost-estimate.ts";
import { estimatedSize, libraryCallCost } from "./cost-library.ts";
import type { SizeLookup } from "./cost-sizes.ts";

type Expr = ReturnType<typeof parse>["expr"];
export type TypeMap = Map<Expr, CelType>;

/** What an estimator knows of an expression (cel-go's AstNode). */
export interface AstNode {
  expr?: Expr;
  path?: string[];
  type: CelType;
  computedSize?: Range;
}

export interface CallEstimate {
  cost: Range;
  resultSize?: Range;
}

const SELECT_AND_IDENT_COST = fixed(1);
const CREATE_LIST_BASE_COST = fixed(10);
const CREATE_MAP_BASE_COST = fixed(30);
const CREATE_MESSAGE_BASE_COST = fixed(40);
const DYN: CelType = { kind: "dyn" };
/** The macros' accumulator: parser.AccumulatorName in cel-go, "@result" in @bufbuild/cel. */
const ACCUMULATORS = new Set(["__result__", "@result"]);
const SCALAR_KINDS = new Set(["bool", "int", "uint", "double", "timestamp", "duration"]);
const ORDERINGS = new Set(["_<_", "_<=_", "_>_", "_>=_"]);

/** astNode.ComputedSize for literals: a constant's length, a list or map literal's entries. */
function literalSize(expr: Expr): Range | undefined {
  const kind = expr.exprKind;
  if (kind.case === "constExpr") {
    const constant = kind.value.constantKind;
    // Go's len(): UTF-8 bytes of a string constant.
    if (constant.case === "stringValue") return fixed(new TextEncoder().encode(constant.value).length);
    if (constant.case === "bytesValue") return fixed(constant.value.length);
    return fixed(1);
  }
  if (kind.case === "listExpr") return fixed(kind.value.elements.length);
  if (kind.case === "structExpr") return fixed(kind.value.entries.length);
  return undefined;
}

/** The overload families cel-go's checker would record for a call, as far as they cost differently. */
function overloads(name: string, target: AstNode | undefined, args: AstNode[]): string[] {
  const kinds = (node: AstNode | undefined, wanted: string[]): string[] =>
    node?.type.kind === "dyn" ? wanted : wanted.filter((kind) => kind === node?.type.kind);
  switch (name) {
    case "_[_]":
      return kinds(args[0], ["list", "map"]).map((kind) => `index_${kind}`);
    case "@in":
      return kinds(args[1], ["list", "map"]).map((kind) => `in_${kind}`);
    case "_&&_":
    case "_||_":
      return ["logical"];
    case "_?_:_":
      return ["conditional"];
    case "_==_":
    case "_!=_":
      return ["equals"];
    case "matches":
    case "contains":
    case "startsWith":
    case "endsWith":
      return target && kinds(target, ["string"]).length > 0 ? [`${name}_string`] : ["other"];
    case "bytes":
    case "string": {
      const from = name === "bytes" ? "string" : "bytes";
      const found = kinds(args[0], [from]).map(() => `${from}_to_${name}`);
      return args[0]?.type.kind === "dyn" ? [...found, "other"] : found.length > 0 ? found : ["other"];
    }
    case "_+_": {
      const known = args.find((arg) => arg.type.kind !== "dyn");
      const candidates = known ? [known.type.kind] : ["string", "bytes", "list", "other"];
      return candidates.map((kind) => ["string", "bytes", "list"].includes(kind) ? `add_${kind}` : "other");
    }
  }
  if (ORDERINGS.has(name)) {
    const known = args.find((arg) => arg.type.kind !== "dyn");
    if (!known) return ["compare_sized", "other"];
    return known.type.kind === "string" || known.type.kind === "bytes" ? ["compare_sized"] : ["other"];
  }
  return ["other"];
}

class Coster {
  readonly #types: TypeMap;
  readonly #lookup: SizeLookup;
  readonly #paths = new Map<Expr, string[]>();
  readonly #computedSizes = new Map<Expr, Range>();
  /** Iteration variables in scope: the stack of their ranges. */
  readonly #iterRanges = new Map<string, Expr[]>();

  constructor(types: TypeMap, lookup: SizeLookup) {
    this.#types = types;
    this.#lookup = lookup;
  }

  #type(expr: Expr): CelType {
    return this.#types.get(expr) ?? DYN;
  }

  #node(expr: Expr): AstNode {
    let path = this.#paths.get(expr);
    // Only paths from root variables are given to the estimator, not the accumulator's.
    if (path && path.length > 0 && ACCUMULATORS.has(path[0])) path = undefined;
    return { expr, path, type: this.#type(expr), computedSize: this.#computedSizes.get(expr) ?? literalSize(expr) };
  }

  /** coster.sizeEstimate: computed, else the estimator's, else 1 for scalars, else unknown. */
  #size(node: AstNode): Range {
    return estimatedSize(node, this.#lookup) ?? (SCALAR_KINDS.has(node.type.kind) ? fixed(1) : this.#lookup.unknown);
  }

  cost(expr: Expr): Range {
    const kind = expr.exprKind;
    switch (kind.case) {
      case "constExpr":
        return ZERO;
      case "identExpr": {
        const range = this.#iterRanges.get(kind.value.name)?.at(-1);
        if (!range) this.#paths.set(expr, [kind.value.name]);
        else {
          const rangeKind = this.#type(range).kind;
          const sub = rangeKind === "list" ? "@items" : rangeKind === "map" ? "@keys" : undefined;
          if (sub) this.#paths.set(expr, [...this.#paths.get(range) ?? [], sub]);
        }
        return SELECT_AND_IDENT_COST;
      }
      case "selectExpr": {
        // A presence test costs nothing (v0.12), not even its operand.
        if (kind.value.testOnly) return ZERO;
        const operand = kind.value.operand!;
        let cost = this.cost(operand);
        const operandKind = this.#type(operand).kind;
        if (operandKind === "object" || operandKind === "map") cost = add(cost, SELECT_AND_IDENT_COST);
        this.#paths.set(expr, [...this.#paths.get(operand) ?? [], kind.value.field]);
        return cost;
      }
      case "callExpr":
        return this.#call(expr, kind.value);
      case "listExpr":
        return add(sum(kind.value.elements.map((element) => this.cost(element))), CREATE_LIST_BASE_COST);
      case "structExpr": {
        const costs = kind.value.entries.flatMap((entry) => [
          entry.keyKind.case === "mapKey" ? this.cost(entry.keyKind.value) : ZERO,
          entry.value ? this.cost(entry.value) : ZERO,
        ]);
        return add(sum(costs), kind.value.messageName ? CREATE_MESSAGE_BASE_COST : CREATE_MAP_BASE_COST);
      }
      case "comprehensionExpr":
        return this.#comprehension(kind.value);
    }
    return ZERO;
  }

  #comprehension(c: Extract<Expr["exprKind"], { case: "comprehensionExpr" }>["value"]): Range {
    const range = c.iterRange!;
    let cost = add(this.cost(range), this.cost(c.accuInit!));
    const stack = this.#iterRanges.get(c.iterVar) ?? [];
    this.#iterRanges.set(c.iterVar, [...stack, range]);
    const loopCost = this.cost(c.loopCondition!);
    const stepCost = this.cost(c.loopStep!);
    this.#iterRanges.set(c.iterVar, stack);
    cost = add(cost, this.cost(c.result!));
    return add(cost, multiply(this.#size(this.#node(range)), add(stepCost, loopCost)));
  }

  #call(expr: Expr, call: { function: string; target?: Expr; args: Expr[] }): Range {
    const argCosts = call.args.map((arg) => this.cost(arg));
    const args = call.args.map((arg) => this.#node(arg));
    let cost = ZERO;
    let target: AstNode | undefined;
    if (call.target) {
      cost = this.cost(call.target);
      target = this.#node(call.target);
    }
    let fnCost: Range | undefined;
    let resultSize: Range | undefined;
    for (const overload of overloads(call.function, target, args)) {
      const estimate = this.#functionCost(call.function, overload, target, args, argCosts);
      fnCost = fnCost ? union(fnCost, estimate.cost) : estimate.cost;
      if (estimate.resultSize) resultSize = resultSize ? union(resultSize, estimate.resultSize) : estimate.resultSize;
      if ((overload === "index_list" || overload === "index_map") && call.args.length > 0) {
        const base = this.#paths.get(call.args[0]) ?? [];
        this.#paths.set(expr, [...base, overload === "index_list" ? "@items" : "@values"]);
      }
    }
    if (resultSize) this.#computedSizes.set(expr, resultSize);
    return add(cost, fnCost ?? ZERO);
  }

  #functionCost(name: string, overload: string, target: AstNode | undefined, args: AstNode[], argCosts: Range[]): CallEstimate {
    const argSum = sum(argCosts);
    const library = libraryCallCost(name, target, args, this.#lookup);
    if (library) return { cost: add(library.cost, argSum), resultSize: library.resultSize };
    const traversal = (node: AstNode) => multiplyByCostFactor(this.#size(node), STRING_TRAVERSAL_COST_FACTOR);
    switch (overload) {
      case "startsWith_string":
      case "endsWith_string":
      case "string_to_bytes":
      case "bytes_to_string":
        if (args.length === 1) return { cost: add(traversal(args[0]), argSum) };
        break;
      case "in_list":
        if (args.length === 2) return { cost: add(this.#size(args[1]), argSum) };
        break;
      case "matches_string":
        if (target && args.length === 1) {
          // One more than the string's length, so an empty string still pays for an expensive pattern.
          const text = multiplyByCostFactor(add(this.#size(target), fixed(1)), STRING_TRAVERSAL_COST_FACTOR);
          const pattern = multiplyByCostFactor(this.#size(args[0]), REGEX_STRING_LENGTH_COST_FACTOR);
          return { cost: add(multiply(text, pattern), argSum) };
        }
        break;
      case "contains_string":
        if (target && args.length === 1) return { cost: add(multiply(traversal(target), traversal(args[0])), argSum) };
        break;
      case "logical":
        // Short-circuiting: at least the left operand, at most both.
        return { cost: { min: argCosts[0].min, max: add(argCosts[0], argCosts[1]).max } };
      case "conditional":
        return {
          cost: add(argCosts[0], union(argCosts[1], argCosts[2])),
          resultSize: union(this.#size(args[1]), this.#size(args[2])),
        };
      case "add_string":
      case "add_bytes":
      case "add_list":
        if (args.length === 2) {
          const size = add(this.#size(args[0]), this.#size(args[1]));
          // List concatenation is O(1); it is here to track the size.
          const own = overload === "add_list" ? fixed(1) : multiplyByCostFactor(size, STRING_TRAVERSAL_COST_FACTOR);
          return { cost: add(own, argSum), resultSize: size };
        }
        break;
      case "compare_sized":
      case "equals": {
        const lhs = this.#size(args[0]);
        const rhs = this.#size(args[1]);
        const smallestMax = lhs.max < rhs.max ? lhs.max : rhs.max;
        const own = multiplyByCostFactor({ min: smallestMax > 0n ? 1n : 0n, max: smallestMax }, STRING_TRAVERSAL_COST_FACTOR);
        return { cost: add(own, argSum) };
      }
    }
    return { cost: add(fixed(1), argSum) };
  }
}

/** checker.Cost of a checked rule (types from check.ts), as a [min, max] range. */
export function estimateCost(expr: Expr, types: TypeMap, lookup: SizeLookup): Range {
  return new Coster(types, lookup).cost(expr);
}
