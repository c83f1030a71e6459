/** The CEL environment of CRD validation rules: the standard library plus kube's libraries of 1.26. */
import { type CelEnv, celEnv, type CelResult, isCelError, parse, plan } from "@bufbuild/cel";
import { kubeFunctions } from "./library/mod.ts";

export const ruleEnv: CelEnv = celEnv({ funcs: kubeFunctions });

export type Program = (bindings: Record<string, unknown>) => CelResult;

/** Plans a parsed expression in the rule environment. */
export function planRule(expr: ReturnType<typeof parse>): Program {
  const program = plan(ruleEnv, expr);
  return (bindings) => program(bindings as never);
}

/** Evaluates a standalone expression (tests and conversions); throws the CEL error's message. */
export function evaluate(source: string, bindings: Record<string, unknown> = {}): unknown {
  const result = planRule(parse(source))(bindings);
  if (isCelError(result)) throw new Error(result.message);
  return result;
}
