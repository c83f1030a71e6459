/**
 * A rule's actual cost as cel-go v0.12 tracks it when kube 1.26 runs a rule (cel.CostTracking with kube's
 * library.CostEstimator, cel.EvalOptions(OptOptimize, OptTrackCost) and cel.CostLimit(PerCallLimit)): the
 * CostObserver of interpreter/runtimecost.go charges every Interpretable the planner built as it is evaluated.
 * - constants cost 0, and so do what OptOptimize folds into constants: list and map literals of constants, type
 *   conversions of constants, `in` over a constant list of primitives (a set lookup costing only its operand);
 * - an attribute (an identifier with its chain of field selections and indexes) costs 1, and 1 per qualifier; an
 *   attribute resolved without Eval (a conditional's branch, an index that is an attribute) costs only its qualifiers;
 * - `&&`, `||`, `?:` and has() cost nothing themselves; the operands they evaluate cost as usual;
 * - list and map literals cost 10 and 30 plus their elements; calls cost their operands plus callCost;
 * - comprehensions cost their range and initial value, the condition and step per iteration until the condition is
 *   false, and the result.
 * @bufbuild/cel has no evaluation observer or cost option, so the walk is the rule's evaluation: operators,
 * functions, field selections and literals are computed by @bufbuild/cel through small programs over the operand
 * values; the walk itself decides what is evaluated, as cel-go's planner does (`&&` and `||` from the left,
 * short-circuiting; a conditional's one branch; a comprehension's loop, which an error in the condition does not
 * stop).
 */
import { celError, isCelError, isCelList, isCelMap, isCelUint, parse, plan } from "@bufbuild/cel";
import { callCost } from "./actual-call-cost.ts";
import { qualifiedName } from "./check.ts";
import { type CelType, DYN } from "./types.ts";
import type { ParsedRule } from "./compile.ts";
import type { TypeMap } from "./cost.ts";
import { ruleEnv } from "./env.ts";

type Expr = ParsedRule["expr"];
type Call = Extract<Expr["exprKind"], { case: "callExpr" }>["value"];
type Comprehension = Extract<Expr["exprKind"], { case: "comprehensionExpr" }>["value"];

const SELECT_AND_IDENT_COST = 1;
const LIST_CREATE_BASE_COST = 10;
const MAP_CREATE_BASE_COST = 30;
/** overloads.IsTypeConversionFunction: what OptOptimize folds when the argument is a constant. */
const CONVERSIONS = new Set(["bool", "bytes", "double", "duration", "dyn", "int", "string", "timestamp", "type", "uint"]);
/** Type names, which the planner resolves to constants. */
const TYPE_NAMES = new Set([
  ...CONVERSIONS,
  "list",
  "map",
  "null_type",
  "google.protobuf.Duration",
  "google.protobuf.Timestamp",
]);
const OPERATORS: Record<string, (args: string[]) => string> = {
  "!_": ([a]) => `!${a}`,
  "-_": ([a]) => `-${a}`,
  "@in": ([a, b]) => `${a} in ${b}`,
  "_[_]": ([a, b]) => `${a}[${b}]`,
};
for (const op of ["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">="]) OPERATORS[`_${op}_`] = ([a, b]) => `${a} ${op} ${b}`;

/** Evaluation with the limit passed: cel-go panics with EvalCancelledError. */
const CANCELLED = Symbol("cancelled");

type Program = (bindings: Record<string, unknown>) => unknown;
const programs = new Map<string, Program>();

/** A program of `source` over variables a0, a1, ... (and t for a target), planned once. */
function program(source: string): Program {
  let found = programs.get(source);
  if (!found) {
    const planned = plan(ruleEnv, parse(source));
    found = (bindings) => planned(bindings as never);
    programs.set(source, found);
  }
  return found;
}

/** An attribute's root and its qualifiers, outermost last: field selections (by their program) and indexes. */
interface AttributeChain {
  root: Expr;
  qualifiers: ({ select: Program } | { index: Expr })[];
}

const chains = new WeakMap<Expr, AttributeChain>();

function attributeChain(expr: Expr): AttributeChain {
  let chain = chains.get(expr);
  if (chain) return chain;
  chain = { root: expr, qualifiers: [] };
  for (;;) {
    const kind = chain.root.exprKind;
    if (kind.case === "selectExpr" && !kind.value.testOnly) {
      chain.qualifiers.unshift({ select: program(`a0.${kind.value.field}`) });
      chain.root = kind.value.operand!;
    } else if (kind.case === "callExpr" && kind.value.function === "_[_]" && kind.value.args.length === 2) {
      chain.qualifiers.unshift({ index: kind.value.args[1] });
      chain.root = kind.value.args[0];
    } else break;
  }
  chains.set(expr, chain);
  return chain;
}

function call(expr: Expr): Call | undefined {
  return expr.exprKind.case === "callExpr" ? expr.exprKind.value : undefined;
}

/** A variable scope: the rule's variables, then iteration variables and accumulators. */
class Scope {
  constructor(readonly variables: Map<string, unknown>, readonly parent?: Scope) {}

  resolve(name: string): { value: unknown } | undefined {
    if (this.variables.has(name)) return { value: this.variables.get(name) };
    return this.parent?.resolve(name);
  }
}

const PRIMITIVE = (value: unknown) =>
  ["boolean", "bigint", "number", "string"].includes(typeof value) || value instanceof Uint8Array || isCelUint(value);

/** What OptOptimize folds, per expression of the compiled rules: its value, or null when evaluated. */
const constants = new WeakMap<Expr, { value: unknown } | null>();
const operations = new WeakMap<Expr, Program>();

/** The program computing `expr` (a call, literal or presence test) from its operands' values, made once. */
function operation(expr: Expr, source: () => string): Program {
  let found = operations.get(expr);
  if (!found) {
    found = program(source());
    operations.set(expr, found);
  }
  return found;
}

class Tracker {
  cost = 0;

  constructor(readonly types: TypeMap, readonly limit: number) {}

  #charge(cost: number): void {
    this.cost += cost;
    if (this.cost > this.limit) throw CANCELLED;
  }

  #type(expr: Expr | undefined): CelType {
    return (expr && this.types.get(expr)) ?? DYN;
  }

  /** The value OptOptimize folds `expr` into, or undefined when it is evaluated. */
  constant(expr: Expr): { value: unknown } | undefined {
    let known = constants.get(expr);
    if (known === undefined) {
      known = this.#isConstant(expr) ? { value: plan(ruleEnv, expr)() } : null;
      constants.set(expr, known);
    }
    return known ?? undefined;
  }

  #isConstant(expr: Expr): boolean {
    const kind = expr.exprKind;
    switch (kind.case) {
      case "constExpr":
        return true;
      case "identExpr":
      case "selectExpr": {
        const name = qualifiedName(expr);
        return name !== undefined && TYPE_NAMES.has(name);
      }
      case "listExpr":
        return kind.value.elements.every((element) => this.constant(element));
      case "structExpr":
        return kind.value.messageName === "" &&
          kind.value.entries.every((entry) =>
            entry.keyKind.case === "mapKey" && this.constant(entry.keyKind.value) && entry.value && this.constant(entry.value)
          );
      case "callExpr":
        return !kind.value.target && kind.value.args.length === 1 && CONVERSIONS.has(kind.value.function) &&
          this.constant(kind.value.args[0]) !== undefined;
    }
    return false;
  }

  /** Interpretable.Eval of `expr`, observed. */
  eval(expr: Expr, scope: Scope): unknown {
    const folded = this.constant(expr);
    if (folded) return folded.value;
    const kind = expr.exprKind;
    switch (kind.case) {
      case "identExpr":
      case "selectExpr":
        if (kind.case === "selectExpr" && kind.value.testOnly) {
          const operand = this.eval(kind.value.operand!, scope);
          return operation(expr, () => `has(a0.${kind.value.field})`)({ a0: operand });
        }
        return this.attribute(expr, scope, true);
      case "callExpr":
        return this.#call(expr, kind.value, scope);
      case "listExpr": {
        const bindings: Record<string, unknown> = {};
        kind.value.elements.forEach((element, i) => bindings[`a${i}`] = this.eval(element, scope));
        this.#charge(LIST_CREATE_BASE_COST);
        return operation(expr, () => `[${kind.value.elements.map((_, i) => `a${i}`).join(", ")}]`)(bindings);
      }
      case "structExpr": {
        const bindings: Record<string, unknown> = {};
        kind.value.entries.forEach((entry, i) => {
          bindings[`k${i}`] = entry.keyKind.case === "mapKey" ? this.eval(entry.keyKind.value, scope) : entry.keyKind.value;
          bindings[`v${i}`] = entry.value ? this.eval(entry.value, scope) : null;
        });
        this.#charge(MAP_CREATE_BASE_COST);
        return operation(expr, () => `{${kind.value.entries.map((_, i) => `k${i}: v${i}`).join(", ")}}`)(bindings);
      }
      case "comprehensionExpr":
        return this.#fold(kind.value, scope);
    }
    return celError("unsupported expression", expr.id);
  }

  /** Whether the planner makes `expr` an attribute: an identifier, a field selection, an index or a conditional. */
  isAttribute(expr: Expr): boolean {
    const kind = expr.exprKind;
    if (kind.case === "identExpr") return true;
    if (kind.case === "selectExpr") return !kind.value.testOnly;
    return kind.case === "callExpr" && (kind.value.function === "_[_]" || kind.value.function === "_?_:_");
  }

  /** An attribute: its root, then each qualifier (1 each); `observed` when evaluated by Eval (1 more). */
  attribute(expr: Expr, scope: Scope, observed: boolean): unknown {
    const { root, qualifiers } = attributeChain(expr);
    let value: unknown;
    const rootKind = root.exprKind;
    const conditional = call(root)?.function === "_?_:_" ? call(root)! : undefined;
    if (rootKind.case === "identExpr") {
      const found = scope.resolve(rootKind.value.name);
      value = found ? found.value : celError(`undeclared reference to '${rootKind.value.name}'`, root.id);
    } else if (conditional) {
      value = this.#conditional(conditional, scope);
    } else {
      value = this.eval(root, scope);
    }
    // The conditional attribute has no cost of its own.
    if (observed && !conditional) this.#charge(SELECT_AND_IDENT_COST);
    for (const qualifier of qualifiers) {
      if (isCelError(value)) break;
      this.#charge(SELECT_AND_IDENT_COST);
      if ("select" in qualifier) {
        value = qualifier.select({ a0: value });
        continue;
      }
      const folded = this.constant(qualifier.index);
      const index = folded
        ? folded.value
        : this.isAttribute(qualifier.index)
        ? this.attribute(qualifier.index, scope, false)
        : this.eval(qualifier.index, scope);
      value = program("a0[a1]")({ a0: value, a1: index });
    }
    return value;
  }

  #conditional(c: Call, scope: Scope): unknown {
    const condition = this.eval(c.args[0], scope);
    if (typeof condition !== "boolean") return isCelError(condition) ? condition : celError("no such overload", 0n);
    const branch = c.args[condition ? 1 : 2];
    // Branches that are attributes are resolved as the conditional's own attributes, without their Eval.
    return this.isAttribute(branch) ? this.attribute(branch, scope, false) : this.eval(branch, scope);
  }

  #call(expr: Expr, c: Call, scope: Scope): unknown {
    switch (c.function) {
      case "_[_]":
      case "_?_:_":
        return this.attribute(expr, scope, true);
      case "_&&_":
      case "_||_": {
        const stopAt = c.function === "_||_";
        const left = this.eval(c.args[0], scope);
        if (left === stopAt) return stopAt;
        const right = this.eval(c.args[1], scope);
        if (right === stopAt) return stopAt;
        if (typeof left === "boolean" && typeof right === "boolean") return !stopAt;
        return isCelError(left) ? left : isCelError(right) ? right : celError("no such overload", expr.id);
      }
      case "@not_strictly_false": {
        const value = this.eval(c.args[0], scope);
        this.#charge(1);
        return value !== false;
      }
      case "@in": {
        const list = this.constant(c.args[1])?.value;
        if (isCelList(list) && [...list].every(PRIMITIVE)) {
          // A set membership test, which costs only its operand; nothing is in an empty list, a constant false.
          if (list.size === 0) return false;
          return program("a0 in a1")({ a0: this.eval(c.args[0], scope), a1: list });
        }
      }
    }
    const target = c.target ? this.eval(c.target, scope) : undefined;
    const bindings: Record<string, unknown> = { t: target };
    const args = c.args.map((arg, i) => bindings[`a${i}`] = this.eval(arg, scope));
    const result = operation(expr, () => {
      const names = args.map((_, i) => `a${i}`);
      const operator = OPERATORS[c.function];
      return operator ? operator(names) : `${c.target ? "t." : ""}${c.function}(${names.join(", ")})`;
    })(bindings);
    const values = c.target ? [target, ...args] : args;
    this.#charge(callCost(c.function, c.target && this.#type(c.target), c.args.map((arg) => this.#type(arg)), values, result));
    return result;
  }

  #fold(c: Comprehension, scope: Scope): unknown {
    const range = this.eval(c.iterRange!, scope);
    let accu = this.eval(c.accuInit!, scope);
    let items: Iterable<unknown>;
    if (isCelList(range)) items = range;
    else if (isCelMap(range)) items = range.keys();
    else return isCelError(range) ? range : celError("type mismatch: iterable", c.iterRange!.id);
    for (const item of items) {
      const inner = new Scope(new Map([[c.iterVar, item], [c.accuVar, accu]]), scope);
      // evalFold stops when the condition is false; an error does not stop it.
      if (this.eval(c.loopCondition!, inner) === false) break;
      accu = this.eval(c.loopStep!, inner);
    }
    return this.eval(c.result!, new Scope(new Map([[c.accuVar, accu]]), scope));
  }
}

export interface CostedResult {
  /** The rule's value, or its CelError; undefined when cancelled. */
  result: unknown;
  cost: number;
  /** The cost passed `limit`: cel-go's "operation cancelled: actual cost limit exceeded". */
  cancelled: boolean;
}

/**
 * Evaluates a compiled rule over `variables` (self, and oldSelf on transition rules) with its actual cost, as
 * cel-go's Program.Eval with cost tracking does; an unexpected failure is an "internal error", as cel-go recovers it.
 */
export function evaluateWithCost(expr: Expr, types: TypeMap, variables: Record<string, unknown>, limit: number): CostedResult {
  const tracker = new Tracker(types, limit);
  const values = new Map(Object.entries(variables).map(([name, value]) => [name, program("v")({ v: value })]));
  try {
    return { result: tracker.eval(expr, new Scope(values)), cost: tracker.cost, cancelled: false };
  } catch (e) {
    if (e === CANCELLED) return { result: undefined, cost: tracker.cost, cancelled: true };
    return { result: celError(`internal error: ${(e as Error).message}`, expr.id), cost: tracker.cost, cancelled: false };
  }
}
