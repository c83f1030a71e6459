/**
 * CRD validation rules (x-kubernetes-validations) in CEL, as kube-apiserver 1.26 evaluates them. The engine
 * (_engine.ts: @bufbuild/cel and @bufbuild/protobuf, ~4.5 MB of an idle server's memory) is loaded at the first
 * schema that has a rule, so a server whose CRDs have none never loads it (bench/profiles/memory.md).
 */
import type { FieldError } from "../api/errors.ts";
import { lazyEntryPoint } from "../runtime/lazy-module.ts";
import type * as Engine from "./_engine.ts";
import type { RuleSchema } from "./schema.ts";
import type { RuleValidator } from "./validator.ts";

export type { RuleSchema, ValidationRule } from "./schema.ts";
export type { RuleValidator } from "./validator.ts";

/** An entry point of the binary of its own (compile.sh). */
const loadEngine = lazyEntryPoint<typeof Engine>("core/cel/_engine.ts", import.meta.url, "./_engine.ts");

/** Any "x-kubernetes-validations" key at any depth: a schema without one has no rule to compile or run. */
function mayHaveRules(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some(mayHaveRules);
  for (const key in value) {
    if (key === "x-kubernetes-validations" || mayHaveRules((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/** ValidateCustomResourceDefinition's x-kubernetes-validations checks (crd-rules.ts); none without rules. */
export function validationRuleErrors(schema: RuleSchema, path: string): FieldError[] {
  return mayHaveRules(schema) ? loadEngine().validationRuleErrors(schema, path) : [];
}

/** A validator for a resource's schema (validator.ts); undefined when the schema has no rules. */
export function ruleValidator(schema: RuleSchema): RuleValidator | undefined {
  return mayHaveRules(schema) ? loadEngine().ruleValidator(schema) : undefined;
}
