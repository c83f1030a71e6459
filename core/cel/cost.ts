/**
 * An estimate of a rule's evaluation cost in cel-go's cost units (checker/cost.go): identifiers and field
 * selections 1, list/map literals 10/30, string traversal 0.1 per character, regular expressions string × 0.25
 * per pattern character, comprehensions their body per element. Sizes come either from the schema (maxLength,
 * maxItems, maxProperties, else the most a request of kube's MaxRequestSizeBytes can hold) for the check at CRD
 * creation (maxLength × 4, as kube sizes strings in bytes), or from the value being validated for the runtime budget. It follows cel-go's model of the dominant
 * terms, not every overload's formula.
 */
import type { parse } from "@bufbuild/cel";
import { escapePropertyName } from "./escape.ts";
import { isFieldObject, mapValueSchema, type RuleSchema, withTypeAndObjectMeta } from "./schema.ts";

type Expr = ReturnType<typeof parse>["expr"];

/** celconfig.MaxRequestSizeBytes: 3 MiB, the largest object a request carries. */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;

/** The size of a value for costs: characters of a string, items of a list or map, with the sizes inside. */
export interface Sized {
  size: number;
  elem?: Sized;
  fields?: Map<string, Sized>;
}

const UNIT: Sized = { size: 1 };

/** The smallest JSON text of a value of `schema` (kube's MinSerializedSize): bounds unbounded lists and maps. */
function minSerializedSize(schema: RuleSchema): number {
  if (schema.type === "string") return 2;
  if (schema.type === "boolean") return 4;
  if (schema.type === "object" || schema.type === "array") return 2;
  return 1;
}

/** Sizes as the schema bounds them. */
export function schemaSizes(schema: RuleSchema, resourceRoot = false): Sized {
  switch (schema.type) {
    case "string":
      // maxLength counts code points; kube sizes strings in bytes, up to 4 per code point.
      return { size: schema.maxLength !== undefined ? schema.maxLength * 4 : MAX_REQUEST_SIZE_BYTES - 2 };
    case "array": {
      const items = schema.items ?? {};
      const size = schema.maxItems ?? Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(items) + 1));
      return { size, elem: schemaSizes(items, items["x-kubernetes-embedded-resource"]) };
    }
    case "object": {
      const values = mapValueSchema(schema);
      if (!isFieldObject(schema) && values) {
        // A map entry is at least `"":` plus the value and a comma.
        const size = schema.maxProperties ?? Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(values) + 4));
        return { size, elem: { size: MAX_REQUEST_SIZE_BYTES - 2 }, fields: new Map([["*", schemaSizes(values)]]) };
      }
      const shown = resourceRoot ? withTypeAndObjectMeta(schema) : schema;
      const fields = new Map<string, Sized>();
      for (const [name, property] of Object.entries(shown.properties ?? {})) {
        const escaped = escapePropertyName(name);
        if (escaped) fields.set(escaped, schemaSizes(property, property["x-kubernetes-embedded-resource"]));
      }
      return { size: fields.size, fields };
    }
  }
  return UNIT;
}

function copy(sized: Sized): Sized {
  const fields = sized.fields && new Map([...sized.fields].map(([name, inner]) => [name, copy(inner)]));
  return { size: sized.size, elem: sized.elem && copy(sized.elem), fields };
}

/** Folds `b` into `into`, keeping the larger size at every level (a list's items share one element size). */
function mergeInto(into: Sized, b: Sized): void {
  into.size = Math.max(into.size, b.size);
  if (b.elem) {
    if (into.elem) mergeInto(into.elem, b.elem);
    else into.elem = copy(b.elem);
  }
  for (const [name, sized] of b.fields ?? []) {
    into.fields ??= new Map();
    const known = into.fields.get(name);
    if (known) mergeInto(known, sized);
    else into.fields.set(name, copy(sized));
  }
}

/** Code points, as cel-go sizes strings. */
function stringSize(value: string): number {
  // deno-lint-ignore no-control-regex
  return /^[\x00-\x7f]*$/.test(value) ? value.length : [...value].length;
}

/** Sizes of an actual value (a CEL value: Map, array, string, bytes). */
export function valueSizes(value: unknown): Sized {
  if (typeof value === "string") return { size: stringSize(value) };
  if (value instanceof Uint8Array) return { size: value.length };
  if (Array.isArray(value)) {
    const elem: Sized = { size: 0 };
    for (const item of value) mergeInto(elem, valueSizes(item));
    return { size: value.length, elem };
  }
  if (value instanceof Map) {
    const fields = new Map<string, Sized>();
    const keys: Sized = { size: 0 };
    const values: Sized = { size: 0 };
    for (const [key, item] of value) {
      const sized = valueSizes(item);
      fields.set(String(key), sized);
      keys.size = Math.max(keys.size, stringSize(String(key)));
      mergeInto(values, sized);
    }
    fields.set("*", values);
    return { size: value.size, elem: keys, fields };
  }
  return UNIT;
}

const STRING_TRAVERSAL = 0.1;
const REGEX_LENGTH = 0.25;

interface Estimate {
  cost: number;
  sized: Sized;
}

function constSize(expr: Expr): Sized {
  const kind = expr.exprKind;
  if (kind.case === "constExpr" && kind.value.constantKind.case === "stringValue") return { size: kind.value.constantKind.value.length };
  return UNIT;
}

function traversal(size: number): number {
  return Math.ceil(size * STRING_TRAVERSAL);
}

function callCost(name: string, target: Estimate | undefined, args: Estimate[]): Estimate {
  const first = target ?? args[0];
  const subject = first?.sized.size ?? 1;
  switch (name) {
    case "matches":
    case "find":
    case "findAll": {
      const pattern = (target ? args[0] : args[1])?.sized.size ?? 1;
      return {
        cost: traversal(subject) * Math.ceil(pattern * REGEX_LENGTH),
        sized: name === "findAll" ? { size: subject, elem: { size: subject } } : first.sized,
      };
    }
    case "contains":
      return { cost: traversal(subject), sized: UNIT };
    case "startsWith":
    case "endsWith":
      return { cost: 1 + traversal(args[0]?.sized.size ?? 1), sized: UNIT };
    case "_==_":
    case "_!=_":
    case "_<_":
    case "_<=_":
    case "_>_":
    case "_>=_":
      return { cost: 1 + (first?.sized.elem ? subject : traversal(Math.min(subject, args.at(-1)?.sized.size ?? subject))), sized: UNIT };
    case "_+_": {
      const size = args.reduce((total, arg) => total + arg.sized.size, 0);
      return { cost: first?.sized.elem ? 1 : traversal(size), sized: { size, elem: first?.sized.elem } };
    }
    case "_&&_":
    case "_||_":
      // Logical operators cost only their operands.
      return { cost: 0, sized: UNIT };
    case "@in":
      return { cost: 1 + (args[1]?.sized.size ?? 1), sized: UNIT };
    case "isSorted":
    case "sum":
    case "min":
    case "max":
    case "indexOf":
    case "lastIndexOf":
      return { cost: 1 + (first?.sized.elem ? subject : traversal(subject)), sized: first?.sized.elem ?? UNIT };
    case "_[_]":
      return { cost: 1, sized: first?.sized.elem ?? UNIT };
    case "lowerAscii":
    case "upperAscii":
    case "trim":
    case "replace":
    case "split":
    case "join":
    case "substring":
    case "url":
    case "isURL":
      return { cost: 1 + traversal(subject), sized: first?.sized ?? UNIT };
  }
  return { cost: 1, sized: UNIT };
}

function estimate(expr: Expr, scope: Map<string, Sized>): Estimate {
  const kind = expr.exprKind;
  switch (kind.case) {
    case "constExpr":
      return { cost: 0, sized: constSize(expr) };
    case "identExpr":
      return { cost: 1, sized: scope.get(kind.value.name) ?? UNIT };
    case "selectExpr": {
      const operand = estimate(kind.value.operand!, scope);
      const fields = operand.sized.fields;
      return { cost: operand.cost + 1, sized: fields?.get(kind.value.field) ?? fields?.get("*") ?? UNIT };
    }
    case "callExpr": {
      const target = kind.value.target ? estimate(kind.value.target, scope) : undefined;
      const args = kind.value.args.map((arg) => estimate(arg, scope));
      const own = callCost(kind.value.function, target, args);
      const inputs = (target?.cost ?? 0) + args.reduce((total, arg) => total + arg.cost, 0);
      return { cost: inputs + own.cost, sized: own.sized };
    }
    case "listExpr": {
      const elems = kind.value.elements.map((e) => estimate(e, scope));
      return { cost: 10 + elems.reduce((total, e) => total + e.cost, 0), sized: { size: elems.length, elem: elems[0]?.sized } };
    }
    case "structExpr":
      return { cost: 30, sized: { size: kind.value.entries.length } };
    case "comprehensionExpr": {
      const c = kind.value;
      const range = estimate(c.iterRange!, scope);
      const accu = estimate(c.accuInit!, scope);
      const inner = new Map([...scope, [c.iterVar, range.sized.elem ?? UNIT], [c.accuVar, {
        size: range.sized.size,
        elem: range.sized.elem,
      }]]);
      const perElement = estimate(c.loopCondition!, inner).cost + estimate(c.loopStep!, inner).cost;
      const result = estimate(c.result!, inner);
      return {
        cost: range.cost + accu.cost + range.sized.size * perElement + result.cost,
        sized: { size: range.sized.size, elem: range.sized.elem },
      };
    }
  }
  return { cost: 1, sized: UNIT };
}

/** The most a rule costs with `self` (and `oldSelf`) of the given sizes. */
export function estimateCost(expr: Expr, self: Sized, oldSelf: Sized = self): number {
  return estimate(expr, new Map([["self", self], ["oldSelf", oldSelf]])).cost;
}

/** How many values one schema node can hold in an object: the product of the enclosing lists' and maps' sizes. */
export function childCardinality(parent: number, container: Sized): number {
  return Math.min(Number.MAX_SAFE_INTEGER, parent * Math.max(container.size, 1));
}
