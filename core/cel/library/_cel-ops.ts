/** Equality, ordering and addition with CEL's own semantics (numbers, strings, bytes, timestamps, durations, lists, maps). */
import { celEnv, type CelValue, isCelError, parse, plan } from "@bufbuild/cel";

const env = celEnv();
const equal = plan(env, parse("a == b"));
const less = plan(env, parse("a < b"));
const add = plan(env, parse("a + b"));
const subtract = plan(env, parse("a - b"));

function run(program: typeof equal, a: CelValue, b: CelValue): CelValue {
  const result = program({ a, b } as never);
  if (isCelError(result)) throw new Error(result.message);
  return result;
}

export function celEquals(a: CelValue, b: CelValue): boolean {
  return run(equal, a, b) === true;
}

/** -1, 0 or 1; values without an order fail with CEL's "no such overload". */
export function celCompare(a: CelValue, b: CelValue): number {
  if (run(less, a, b) === true) return -1;
  return run(less, b, a) === true ? 1 : 0;
}

/** a + b: int, uint, double and duration sums (overflow fails as CEL's does). */
export function celAdd(a: CelValue, b: CelValue): CelValue {
  return run(add, a, b);
}

/** a - b: differences of numbers, timestamps and durations with CEL's own range checks. */
export function celSubtract(a: CelValue, b: CelValue): CelValue {
  return run(subtract, a, b);
}
