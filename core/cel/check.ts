/**
 * What cel-go's checker refuses in a rule, over kube's types of the schema (model.SchemaDeclType): undeclared
 * identifiers and functions, fields an object does not declare, field selection on scalars and lists, ranges of
 * comprehensions that are neither lists nor maps, calls no overload takes for the declared types of their operands
 * (operators.ts, overloads.ts), constant regular expressions RE2 cannot parse, and rules whose result is known not to
 * be a bool. Calls over dyn operands (int-or-string, or what kubun does not type) are left to the runtime.
 */
import type { parse } from "@bufbuild/cel";
import { ruleEnv } from "./env.ts";
import { compileRE2 } from "./library/mod.ts";
import { methodError, operatorResult } from "./operators.ts";
import { overloadError } from "./overloads.ts";
import { type CelType, DYN, fieldType, printType } from "./types.ts";

type Parsed = ReturnType<typeof parse>;
type Expr = Parsed["expr"];

const BOOL: CelType = { kind: "bool" };
const TYPE_NAMES = new Set(["int", "uint", "double", "string", "bool", "bytes", "list", "map", "null_type", "type", "dyn"]);
const BOOL_FUNCTIONS = new Set([
  "matches",
  "startsWith",
  "endsWith",
  "contains",
  "isSorted",
  "isURL",
  "@in",
  "@not_strictly_false",
  "!_",
  "_&&_",
  "_||_",
  "_==_",
  "_!=_",
  "_<_",
  "_<=_",
  "_>_",
  "_>=_",
]);
const REGEX_FUNCTIONS = new Set(["matches", "find", "findAll"]);
const QUALIFIED_TYPE_NAMES = new Set(["google.protobuf.Duration", "google.protobuf.Timestamp"]);
/** Operators cel-go places at their token, which @bufbuild/cel places at the left operand. */
const INFIX_TOKENS: Record<string, string> = { "_&&_": "&&", "_||_": "||", "_?_:_": "?" };
const SCALAR_KINDS = new Set(["bool", "int", "uint", "double", "string", "bytes", "null_type"]);

/** `a.b.c` of a chain of field selections on an identifier. */
export function qualifiedName(expr: Expr): string | undefined {
  const kind = expr.exprKind;
  if (kind.case === "identExpr") return kind.value.name;
  if (kind.case !== "selectExpr" || kind.value.testOnly || !kind.value.operand) return undefined;
  const parent = qualifiedName(kind.value.operand);
  return parent === undefined ? undefined : `${parent}.${kind.value.field}`;
}

export interface CheckIssue {
  message: string;
  offset: number;
  /** A constant regular expression that does not parse: cel-go fails when it builds the program, not the checker. */
  program?: boolean;
}

class RuleChecker {
  readonly issues: CheckIssue[] = [];
  /** The type of every expression, for the cost estimator. */
  readonly types = new Map<Expr, CelType>();
  readonly #positions: Record<string, number>;
  readonly #source: string;

  constructor(positions: Record<string, number>, source: string) {
    this.#positions = positions;
    this.#source = source;
  }

  #fail(expr: Expr, message: string, program = false): CelType {
    let offset = this.#positions[String(expr.id)] ?? 0;
    // cel-go places a call at its opening parenthesis.
    if (expr.exprKind.case === "callExpr" && /^[a-zA-Z]/.test(expr.exprKind.value.function)) {
      const paren = this.#source.indexOf("(", offset);
      if (paren >= 0) offset = paren;
    }
    // ... and an infix operator at its token, the last one before the second operand.
    const infix = expr.exprKind.case === "callExpr" && INFIX_TOKENS[expr.exprKind.value.function];
    if (infix && expr.exprKind.case === "callExpr") {
      const right = this.#positions[String(expr.exprKind.value.args[1]?.id)];
      const token = right === undefined ? -1 : this.#source.lastIndexOf(infix, right);
      if (token >= 0) offset = token;
    }
    // @bufbuild/cel may place `in` at the blank before it; cel-go at the operator.
    while (/\s/.test(this.#source[offset] ?? "")) offset++;
    this.issues.push({ message, offset, program });
    return DYN;
  }

  check(expr: Expr, scope: Map<string, CelType>): CelType {
    const type = this.#visit(expr, scope);
    this.types.set(expr, type);
    return type;
  }

  #visit(expr: Expr, scope: Map<string, CelType>): CelType {
    const kind = expr.exprKind;
    switch (kind.case) {
      case "constExpr": {
        const names = {
          boolValue: "bool",
          int64Value: "int",
          uint64Value: "uint",
          doubleValue: "double",
          stringValue: "string",
          bytesValue: "bytes",
          nullValue: "null_type",
        } as const;
        return { kind: names[kind.value.constantKind.case as keyof typeof names] ?? "dyn" } as CelType;
      }
      case "identExpr": {
        const found = scope.get(kind.value.name);
        if (found) return found;
        if (TYPE_NAMES.has(kind.value.name)) return { kind: "type" };
        return this.#fail(expr, `undeclared reference to '${kind.value.name}' (in container '')`);
      }
      case "selectExpr": {
        // Qualified type names, which cel-go's checker resolves before any variable.
        if (QUALIFIED_TYPE_NAMES.has(qualifiedName(expr) ?? "")) return { kind: "type" };
        const operand = this.check(kind.value.operand!, scope);
        const result = this.#select(expr, operand, kind.value.field);
        return kind.value.testOnly ? BOOL : result;
      }
      case "callExpr":
        return this.#call(expr, kind.value, scope);
      case "listExpr": {
        const elems = kind.value.elements.map((e) => this.check(e, scope));
        // HomogeneousAggregateLiterals: every element of a list literal has the first one's type.
        const first = elems.find((elem) => elem.kind !== "dyn");
        elems.forEach((elem, i) => {
          if (first && elem.kind !== "dyn" && elem.kind !== first.kind && SCALAR_KINDS.has(elem.kind) && SCALAR_KINDS.has(first.kind)) {
            this.#fail(kind.value.elements[i], `expected type '${first.kind}' but found '${elem.kind}'`);
          }
        });
        return { kind: "list", elem: first ?? DYN };
      }
      case "structExpr":
        for (const entry of kind.value.entries) {
          if (entry.keyKind.case === "mapKey") this.check(entry.keyKind.value, scope);
          if (entry.value) this.check(entry.value, scope);
        }
        return { kind: "map", value: DYN };
      case "comprehensionExpr": {
        const c = kind.value;
        const range = this.check(c.iterRange!, scope);
        const elem = range.kind === "list" ? range.elem : range.kind === "map" ? { kind: "string" } as CelType : DYN;
        if (!["list", "map", "dyn"].includes(range.kind)) {
          const printed = printType(range);
          if (printed) {
            this.#fail(c.iterRange!, `expression of type '${printed}' cannot be range of a comprehension (must be list, map, or dynamic)`);
          }
        }
        const accu = this.check(c.accuInit!, scope);
        const inner = new Map([...scope, [c.iterVar, elem], [c.accuVar, accu]]);
        this.check(c.loopCondition!, inner);
        this.check(c.loopStep!, inner);
        return this.check(c.result!, new Map([...scope, [c.accuVar, accu]]));
      }
    }
    return DYN;
  }

  #select(expr: Expr, operand: CelType, field: string): CelType {
    switch (operand.kind) {
      case "object":
        return fieldType(operand, field) ?? this.#fail(expr, `undefined field '${field}'`);
      case "map":
        return operand.value;
      case "dyn":
        return DYN;
    }
    return this.#fail(expr, `type '${printType(operand) ?? operand.kind}' does not support field selection`);
  }

  #call(expr: Expr, call: { function: string; target?: Expr; args: Expr[] }, scope: Map<string, CelType>): CelType {
    const target = call.target ? this.check(call.target, scope) : undefined;
    const args = call.args.map((arg) => this.check(arg, scope));
    const name = call.function;
    const operator = /^[_@!-]/.test(name);
    if (!operator && !ruleEnv.funcs.find(name)) return this.#fail(expr, `undeclared reference to '${name}' (in container '')`);
    const pattern = call.args[REGEX_FUNCTIONS.has(name) ? (call.target ? 0 : 1) : -1]?.exprKind;
    if (pattern?.case === "constExpr" && pattern.value.constantKind.case === "stringValue") {
      try {
        compileRE2(pattern.value.constantKind.value, "");
      } catch (e) {
        return this.#fail(expr, (e as Error).message, true);
      }
    }
    const mismatch = (target && methodError(name, target, args)) ?? overloadError(name, target, args);
    if (mismatch) return this.#fail(expr, mismatch);
    const typed = operatorResult(name, args);
    if (typeof typed === "string") return this.#fail(expr, typed);
    if (typed) return typed;
    if (BOOL_FUNCTIONS.has(name) || name.startsWith("@")) return BOOL;
    if (name === "size" || name === "indexOf" || name === "lastIndexOf") return { kind: "int" };
    if (["_+_", "_-_", "_*_", "_/_", "_%_", "-_"].includes(name)) return args[0] ?? DYN;
    if (name === "_?_:_") return args[1] ?? DYN;
    if (name === "_[_]") return args[0]?.kind === "list" ? args[0].elem : args[0]?.kind === "map" ? args[0].value : DYN;
    if (["lowerAscii", "upperAscii", "trim", "replace", "substring", "charAt", "join", "string", "find"].includes(name)) {
      return { kind: "string" };
    }
    if (target?.kind === "list" && ["min", "max", "sum"].includes(name)) return target.elem;
    return DYN;
  }
}

/** The checker's issues for a parsed rule with `self` (and `oldSelf`) of type `self`, its result type and every expression's type. */
export function checkRule(
  parsed: Parsed,
  source: string,
  self: CelType,
): { issues: CheckIssue[]; result: CelType; types: Map<Expr, CelType> } {
  const checker = new RuleChecker(parsed.sourceInfo?.positions ?? {}, source);
  const result = checker.check(parsed.expr, new Map([["self", self], ["oldSelf", self]]));
  return { issues: checker.issues, result, types: checker.types };
}
