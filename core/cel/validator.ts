/**
 * Running a schema's x-kubernetes-validations over an object as kube's cel.Validator does
 * (apiextensions-apiserver pkg/apiserver/schema/cel/validation.go, 1.26): rules at every level with `self`,
 * transition rules only where an old value correlates (same property of an object or granular map, same key of a
 * list-type map), one cost budget per object (RuntimeCELCostBudget) and a per-rule limit (PerCallLimit), both on
 * the rules' actual cost (actual-cost.ts).
 */
import { isCelError } from "@bufbuild/cel";
import type { FieldError } from "../api/errors.ts";
import { type CompiledRule, compileRule } from "./compile.ts";
import { evaluateWithCost } from "./actual-cost.ts";
import { isFieldObject, mapValueSchema, type RuleSchema } from "./schema.ts";
import { toCelValue } from "./values.ts";

/** celconfig.PerCallLimit: the most one rule may cost. */
export const PER_CALL_LIMIT = 1_000_000;
/** celconfig.RuntimeCELCostBudget: the most all rules may cost on one object. */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;

const OUT_OF_BUDGET = "validation failed due to running out of cost budget, no further validation rules will be run";

interface RuleNode {
  schema: RuleSchema;
  resourceRoot: boolean;
  rules: CompiledRule[];
  properties: Map<string, RuleNode>;
  items?: RuleNode;
  values?: RuleNode;
}

function buildNode(schema: RuleSchema, resourceRoot: boolean): RuleNode | undefined {
  const properties = new Map<string, RuleNode>();
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const node = buildNode(property, property["x-kubernetes-embedded-resource"] === true);
    if (node) properties.set(name, node);
  }
  const items = schema.items ? buildNode(schema.items, schema.items["x-kubernetes-embedded-resource"] === true) : undefined;
  const valueSchema = mapValueSchema(schema);
  const values = valueSchema ? buildNode(valueSchema, valueSchema["x-kubernetes-embedded-resource"] === true) : undefined;
  const rules = (schema["x-kubernetes-validations"] ?? []).map((rule) => compileRule(rule, schema, resourceRoot));
  if (rules.length === 0 && properties.size === 0 && !items && !values) return undefined;
  return { schema, resourceRoot, rules, properties, items, values };
}

/** ruleErrorString: the trimmed message, else the trimmed rule. */
function ruleText(compiled: CompiledRule): string {
  return (compiled.rule.message?.trim() || compiled.rule.rule?.trim()) ?? "";
}

/** cel-go's runtime error texts for the failures @bufbuild/cel words differently. */
function celGoError(message: string): string {
  const key = /^field not found: (.*)$/.exec(message);
  if (key) return `no such key: ${key[1]}`;
  if (/divide by zero/.test(message)) return "division by zero";
  if (/modulus by zero/.test(message)) return "modulus by zero";
  if (/^(int|uint) overflow/.test(message)) return "integer overflow";
  if (/^found no matching overload|^unbound function/.test(message)) return "no such overload";
  return message;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function childPath(path: string, name: string): string {
  return path === "" ? name : `${path}.${name}`;
}

class Run {
  remaining = RUNTIME_CEL_COST_BUDGET;
  stopped = false;
  readonly errors: FieldError[] = [];

  #invalid(path: string, node: RuleNode, detail: string): void {
    this.errors.push({ type: "FieldValueInvalid", field: path === "" ? "<nil>" : path, value: node.schema.type ?? "", detail });
  }

  #stop(path: string, node: RuleNode, detail: string): void {
    this.#invalid(path, node, detail);
    this.stopped = true;
  }

  validate(node: RuleNode, value: unknown, old: unknown, path: string): void {
    if (this.stopped || value === null || value === undefined) return;
    if (node.rules.length > 0) this.#rules(node, value, old, path);
    if (this.stopped) return;
    if (Array.isArray(value) && node.items) this.#list(node, node.items, value, old, path);
    else if (isRecord(value)) this.#object(node, value, isRecord(old) ? old : undefined, path);
  }

  #rules(node: RuleNode, value: unknown, old: unknown, path: string): void {
    if (this.remaining <= 0) return this.#stop(path, node, OUT_OF_BUDGET);
    const self = toCelValue(value, node.schema, node.resourceRoot);
    const oldSelf = old === undefined || old === null ? undefined : toCelValue(old, node.schema, node.resourceRoot);
    for (const compiled of node.rules) {
      // An empty rule has neither program nor error in kube (CRD validation refuses it); it is skipped.
      if (compiled.error?.type === "required") continue;
      if (compiled.error) {
        this.#invalid(path, node, `rule compile error: ${compiled.error.detail}`);
        continue;
      }
      // Transition rules run only where an old value correlates.
      if (compiled.usesOldSelf && oldSelf === undefined) continue;
      const variables = oldSelf === undefined ? { self } : { self, oldSelf };
      const { result, cost, cancelled } = evaluateWithCost(compiled.parsed!.expr, compiled.types!, variables, PER_CALL_LIMIT);
      // validateExpressions charges the rule's cost before it looks at the outcome, a cancelled one included.
      if (cost > this.remaining) return this.#stop(path, node, OUT_OF_BUDGET);
      this.remaining -= cost;
      if (cancelled) {
        const detail =
          `'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${
            ruleText(compiled)
          }`;
        return this.#stop(path, node, detail);
      }
      if (isCelError(result)) {
        const error = celGoError(result.message);
        this.#invalid(
          path,
          node,
          error === "no such overload"
            ? `'${error}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleText(compiled)}`
            : `${error} evaluating rule: ${ruleText(compiled)}`,
        );
      } else if (result !== true) {
        this.#invalid(path, node, compiled.rule.message?.trim() || `failed rule: ${ruleText(compiled)}`);
      }
    }
  }

  #object(node: RuleNode, value: Record<string, unknown>, old: Record<string, unknown> | undefined, path: string): void {
    // MapIsCorrelatable: every object and map but an atomic map keeps its old values.
    const correlated = node.schema["x-kubernetes-map-type"] === "atomic" ? undefined : old;
    const fields = isFieldObject(node.schema);
    for (const [key, child] of Object.entries(value)) {
      const childNode = fields ? node.properties.get(key) : node.values;
      if (childNode) this.validate(childNode, child, correlated?.[key], fields ? childPath(path, key) : `${path}[${key}]`);
      if (this.stopped) return;
    }
  }

  #list(node: RuleNode, items: RuleNode, value: unknown[], old: unknown, path: string): void {
    const keys = node.schema["x-kubernetes-list-type"] === "map" ? node.schema["x-kubernetes-list-map-keys"] ?? [] : undefined;
    const oldItems = keys && Array.isArray(old) ? old.filter(isRecord) : [];
    const identity = (item: Record<string, unknown>) => JSON.stringify(keys!.map((k) => item[k] ?? null));
    const byKey = new Map(oldItems.map((item) => [identity(item), item]));
    value.forEach((item, i) => {
      if (this.stopped) return;
      const oldItem = keys && isRecord(item) ? byKey.get(identity(item)) : undefined;
      this.validate(items, item, oldItem, `${path}[${i}]`);
    });
  }
}

export interface RuleValidator {
  /** The rules' errors for `obj` (the whole object, envelope included), given the stored object on updates. */
  validate(obj: unknown, old?: unknown): FieldError[];
}

/** A validator for a resource's schema; undefined when the schema has no rules. */
export function ruleValidator(schema: RuleSchema): RuleValidator | undefined {
  const root = buildNode(schema, true);
  if (!root) return undefined;
  return {
    validate(obj, old) {
      const run = new Run();
      run.validate(root, obj, old, "");
      return run.errors;
    },
  };
}
