/** Test helper: a CEL expression's value, with lists and maps as plain arrays and objects. */
import { isCelList, isCelMap } from "@bufbuild/cel";
import { evaluate } from "../env.ts";

function plain(value: unknown): unknown {
  if (isCelList(value)) return [...value].map(plain);
  if (isCelMap(value)) return Object.fromEntries([...value].map(([k, v]) => [String(k), plain(v)]));
  return value;
}

export function celValue(expression: string): unknown {
  return plain(evaluate(expression));
}
