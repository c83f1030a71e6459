/**
 * Compiling one x-kubernetes-validations rule as kube's cel.Compile does (apiextensions-apiserver
 * pkg/apiserver/schema/cel/compilation.go): parse, check against the schema's types, require a bool, and note
 * whether the rule is a transition rule (uses oldSelf). Issues are written as cel-go prints them.
 */
import { parse } from "@bufbuild/cel";
import { type CheckIssue, checkRule } from "./check.ts";
import type { TypeMap } from "./cost.ts";
import type { RuleSchema, ValidationRule } from "./schema.ts";
import { schemaCelType, selfTypeName } from "./types.ts";

export type ParsedRule = ReturnType<typeof parse>;

export interface CompiledRule {
  rule: ValidationRule;
  parsed?: ParsedRule;
  /** The checker's type of every expression, for the cost estimator. */
  types?: TypeMap;
  usesOldSelf: boolean;
  /** "required" for an empty rule (field.Required), "invalid" for the rest (field.Invalid). */
  error?: { type: "required" | "invalid"; detail: string };
}

/** cel-go's Issues.String(): `ERROR: <input>:line:column: message` with the source line and a caret. */
function formatIssue(source: string, issue: CheckIssue): string {
  const before = source.slice(0, issue.offset);
  const line = before.split("\n").length;
  const lineStart = before.lastIndexOf("\n") + 1;
  const column = issue.offset - lineStart;
  const text = source.slice(lineStart).split("\n")[0];
  return `ERROR: <input>:${line}:${column + 1}: ${issue.message}\n | ${text}\n | ${".".repeat(column)}^`;
}

function usesOldSelf(parsed: ParsedRule): boolean {
  let found = false;
  const visit = (value: unknown): void => {
    if (found || typeof value !== "object" || value === null) return;
    const node = value as { case?: string; value?: { name?: string } };
    if (node.case === "identExpr" && node.value?.name === "oldSelf") found = true;
    for (const child of Object.values(value)) visit(child);
  };
  visit(parsed.expr);
  return found;
}

function syntaxOffset(error: unknown): number | undefined {
  const start = (error as { location?: { start?: { offset?: number } } }).location?.start?.offset;
  return typeof start === "number" ? start : undefined;
}

export function compileRule(rule: ValidationRule, schema: RuleSchema, resourceRoot: boolean): CompiledRule {
  const source = rule.rule ?? "";
  if (source.trim() === "") return { rule, usesOldSelf: false, error: { type: "required", detail: "rule is not specified" } };
  let parsed: ParsedRule;
  try {
    parsed = parse(source);
  } catch (e) {
    const raw = (e as { rawMessage?: string }).rawMessage ?? (e as Error).message;
    const issue = { message: `Syntax error: ${raw}`, offset: syntaxOffset(e) ?? 0 };
    return { rule, usesOldSelf: false, error: { type: "invalid", detail: `compilation failed: ${formatIssue(source, issue)}` } };
  }
  const { issues, result, types } = checkRule(parsed, source, schemaCelType(schema, resourceRoot, selfTypeName()));
  const transition = usesOldSelf(parsed);
  const checked = issues.filter((issue) => !issue.program);
  if (checked.length > 0) {
    const detail = `compilation failed: ${checked.map((issue) => formatIssue(source, issue)).join("\n")}`;
    return { rule, parsed, usesOldSelf: transition, error: { type: "invalid", detail } };
  }
  if (issues.length > 0) {
    const detail = `program instantiation failed: ${issues[0].message}`;
    return { rule, parsed, usesOldSelf: transition, error: { type: "invalid", detail } };
  }
  if (result.kind !== "bool" && result.kind !== "dyn") {
    return { rule, parsed, usesOldSelf: transition, error: { type: "invalid", detail: "cel expression must evaluate to a bool" } };
  }
  return { rule, parsed, types, usesOldSelf: transition };
}
