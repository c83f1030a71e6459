/**
 * The JSONPath subset of additionalPrinterColumns: `.a.b`, `.a[0]`, `.a[*].b`, `.a['x.y']`, with or without
 * kubectl's braces. Answers every value the path reaches.
 */
import { isPlainObject } from "../api/types.ts";

type Step = { field: string } | { index: number } | { all: true };

const STEP = /\.([A-Za-z0-9_-]+)|\[(\d+|\*|'[^']*'|"[^"]*")\]/y;

/** Parses a path; throws on anything outside the subset. */
export function parseJSONPath(path: string): Step[] {
  const text = path.trim().replace(/^\{(.*)\}$/, "$1").replace(/^\$/, "");
  const steps: Step[] = [];
  STEP.lastIndex = 0;
  while (STEP.lastIndex < text.length) {
    const at = STEP.lastIndex;
    const match = STEP.exec(text);
    if (!match || match.index !== at) throw new Error(`unsupported JSONPath ${JSON.stringify(path)}`);
    const [, field, bracket] = match;
    if (field !== undefined) steps.push({ field });
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
      } else if (Array.isArray(item)) {
        if ("all" in step) next.push(...item);
        else if (step.index < item.length) next.push(item[step.index]);
      }
    }
    current = next;
  }
  return current;
}
