/**
 * The JSONPath subset of additionalPrinterColumns: `.a.b`, `.a[0]`, `.a[*].b`, `.a['x.y']` and filters
 * `[?(@.type=="Ready")]` (client-go jsonpath's ==, !=, <, <=, >, >= against a string or number literal, or `@.a`
 * alone for presence), with or without kubectl's braces. Answers every value the path reaches.
 */
import { isPlainObject } from "../../api/types.ts";

interface Filter {
  path: Step[];
  op?: string;
  literal?: string | number;
}

type Step = { field: string } | { index: number } | { all: true } | { filter: Filter };

const STEP = /\.([A-Za-z0-9_-]+)|\[(\d+|\*|'[^']*'|"[^"]*")\]|\[\?\((.*?)\)\]/y;
const FILTER = /^@((?:\.[A-Za-z0-9_-]+)*)\s*(?:(==|!=|<=|>=|<|>)\s*("[^"]*"|'[^']*'|-?\d+(?:\.\d+)?))?$/;

function parseFilter(text: string, path: string): Filter {
  const match = FILTER.exec(text.trim());
  if (!match) throw new Error(`unsupported JSONPath ${JSON.stringify(path)}`);
  const [, fields, op, literal] = match;
  const steps = fields.split(".").filter((field) => field !== "").map((field) => ({ field }));
  if (op === undefined) return { path: steps };
  return { path: steps, op, literal: /^["']/.test(literal) ? literal.slice(1, -1) : Number(literal) };
}

function compare(value: unknown, op: string, literal: string | number): boolean {
  if (typeof value !== typeof literal) return op === "!=";
  const a = value as string | number;
  switch (op) {
    case "==":
      return a === literal;
    case "!=":
      return a !== literal;
    case "<":
      return a < literal;
    case "<=":
      return a <= literal;
    case ">":
      return a > literal;
  }
  return a >= literal;
}

function passes(filter: Filter, item: unknown): boolean {
  const found = evaluateJSONPath(filter.path, item);
  if (filter.op === undefined) return found.length > 0;
  return found.length > 0 && compare(found[0], filter.op, filter.literal!);
}

/** Parses a path; throws on anything outside the subset. */
export function parseJSONPath(path: string): Step[] {
  const text = path.trim().replace(/^\{(.*)\}$/, "$1").replace(/^\$/, "");
  const steps: Step[] = [];
  STEP.lastIndex = 0;
  while (STEP.lastIndex < text.length) {
    const at = STEP.lastIndex;
    const match = STEP.exec(text);
    if (!match || match.index !== at) throw new Error(`unsupported JSONPath ${JSON.stringify(path)}`);
    const [, field, bracket, filter] = match;
    if (field !== undefined) steps.push({ field });
    else if (filter !== undefined) steps.push({ filter: parseFilter(filter, path) });
    else if (bracket === "*") steps.push({ all: true });
    else if (/^\d+$/.test(bracket)) steps.push({ index: Number(bracket) });
    else steps.push({ field: bracket.slice(1, -1) });
  }
  return steps;
}

/** The values `steps` reach in `value`; none when a step finds nothing. */
export function evaluateJSONPath(steps: Step[], value: unknown): unknown[] {
  let current: unknown[] = [value];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const item of current) {
      if ("field" in step) {
        if (isPlainObject(item) && item[step.field] !== undefined) next.push(item[step.field]);
      } else if ("filter" in step) {
        if (Array.isArray(item)) next.push(...item.filter((element) => passes(step.filter, element)));
      } else if (Array.isArray(item)) {
        if ("all" in step) next.push(...item);
        else if (step.index < item.length) next.push(item[step.index]);
      }
    }
    current = next;
  }
  return current;
}
