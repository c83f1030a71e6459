/**
 * The x-kubernetes-validations checks of ValidateCustomResourceDefinition (apiextensions validation.go, 1.26):
 * rule and message shape, compilation, transition rules only where old values correlate, and the estimated cost
 * per rule (StaticEstimatedCostLimit, times how many values the node can hold) and for the whole schema
 * (StaticEstimatedCRDCostLimit), with getCostErrorMessage's wording.
 */
import type { FieldError } from "../api/errors.ts";
import { compileRule } from "./compile.ts";
import { estimateCost } from "./cost.ts";
import { MAX_REQUEST_SIZE_BYTES, minSerializedSize, schemaSizeLookup } from "./cost-sizes.ts";
import { mapValueSchema, type RuleSchema } from "./schema.ts";

/** Per rule, after multiplying by the node's cardinality. */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
/** All rules of one schema together. */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;

const COST_HINT =
  "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";

/** getCostErrorMessage: an exact factor below 1.5 (Go's %f), one decimal up to 100, then "more than 100x". */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const factor = cost / limit;
  const text = factor > 100 ? "more than 100x" : factor < 1.5 ? `${factor.toFixed(6)}x` : `${factor.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${text} ${COST_HINT}`;
}

interface Walk {
  errors: FieldError[];
  total: number;
  expensive: { path: string; cost: number }[];
}

/** The path of the nearest list or atomic map above that cannot carry old values, or undefined. */
type Uncorrelatable = string | undefined;

function ruleErrors(
  schema: RuleSchema,
  path: string,
  resourceRoot: boolean,
  cardinality: Cardinality,
  uncorrelatable: Uncorrelatable,
  walk: Walk,
): void {
  const rules = schema["x-kubernetes-validations"] ?? [];
  rules.forEach((rule, i) => {
    const rulePath = `${path}.x-kubernetes-validations[${i}]`;
    const message = rule.message ?? "";
    const trimmedRule = (rule.rule ?? "").trim();
    if (trimmedRule === "") return;
    if (message.length > 0 && message.trim() === "") {
      walk.errors.push({
        type: "FieldValueInvalid",
        field: `${rulePath}.message`,
        value: message,
        detail: "message must be non-empty if specified",
      });
    } else if (/[\n\r]/.test(message.trim())) {
      walk.errors.push({
        type: "FieldValueInvalid",
        field: `${rulePath}.message`,
        value: message,
        detail: "message must not contain line breaks",
      });
    } else if (/[\n\r]/.test(trimmedRule) && message.trim() === "") {
      walk.errors.push({
        type: "FieldValueRequired",
        field: `${rulePath}.message`,
        detail: "message must be specified if rule contains line breaks",
      });
    }
  });
  const sizes = schemaSizeLookup(schema, resourceRoot);
  rules.forEach((rule, i) => {
    const field = `${path}.x-kubernetes-validations[${i}].rule`;
    const compiled = compileRule(rule, schema, resourceRoot);
    if (compiled.parsed && compiled.types && !compiled.error) {
      // getExpressionCost: below an unbounded list or map, as many values as a request can hold (CompilationResult.MaxCardinality).
      const times = cardinality ?? Math.floor(MAX_REQUEST_SIZE_BYTES / (minSerializedSize(schema) + 1));
      const cost = Number(estimateCost(compiled.parsed.expr, compiled.types, sizes).max) * times;
      if (cost > STATIC_ESTIMATED_COST_LIMIT) {
        walk.errors.push({
          type: "FieldValueForbidden",
          field,
          detail: costErrorMessage("estimated rule cost", cost, STATIC_ESTIMATED_COST_LIMIT),
        });
      }
      walk.total += cost;
      // TotalCost.ObserveExpressionCost keeps the four most expensive rules of at least 1% of the limit.
      if (cost >= STATIC_ESTIMATED_CRD_COST_LIMIT / 100) {
        walk.expensive = [...walk.expensive, { path: field, cost }].sort((a, b) => b.cost - a.cost).slice(0, 4);
      }
    }
    if (compiled.error?.type === "required") walk.errors.push({ type: "FieldValueRequired", field, detail: compiled.error.detail });
    else if (compiled.error) {
      const valueText = `apiextensions.ValidationRule{Rule:${JSON.stringify(rule.rule ?? "")}, Message:${
        JSON.stringify(rule.message ?? "")
      }}`;
      walk.errors.push({ type: "FieldValueInvalid", field, value: rule, valueText, detail: compiled.error.detail });
    }
    if (compiled.usesOldSelf && uncorrelatable !== undefined) {
      walk.errors.push({
        type: "FieldValueInvalid",
        field,
        value: rule.rule,
        detail: `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`,
      });
    }
  });
}

/** How many times a schema node's values can occur in an object; undefined when a list or map above is unbounded. */
type Cardinality = number | undefined;

/** CELSchemaContext.childContext with extractMaxElements: the parent's times maxItems or maxProperties. */
function childCardinality(parent: Cardinality, container: RuleSchema): Cardinality {
  const bound = container.type === "array"
    ? container.maxItems
    : container.type === "object" && container.additionalProperties !== undefined
    ? container.maxProperties
    : 1;
  return parent === undefined || bound === undefined ? undefined : parent * Math.max(bound, 0);
}

function walkSchema(
  schema: RuleSchema,
  path: string,
  resourceRoot: boolean,
  cardinality: Cardinality,
  uncorrelatable: Uncorrelatable,
  walk: Walk,
): void {
  ruleErrors(schema, path, resourceRoot, cardinality, uncorrelatable, walk);
  const atomicMap = schema["x-kubernetes-map-type"] === "atomic";
  const below = uncorrelatable ?? (atomicMap ? path : undefined);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    walkSchema(property, `${path}.properties[${name}]`, property["x-kubernetes-embedded-resource"] === true, cardinality, below, walk);
  }
  if (schema.items) {
    const items = schema.items;
    // Only list-type map items correlate (sets are not correlated for rules); the path named is the list's.
    const listBelow = uncorrelatable ?? (schema["x-kubernetes-list-type"] === "map" ? undefined : path);
    walkSchema(
      items,
      `${path}.items`,
      items["x-kubernetes-embedded-resource"] === true,
      childCardinality(cardinality, schema),
      listBelow,
      walk,
    );
  }
  const values = mapValueSchema(schema);
  if (values) {
    const path2 = `${path}.additionalProperties`;
    walkSchema(values, path2, values["x-kubernetes-embedded-resource"] === true, childCardinality(cardinality, schema), below, walk);
  }
}

/** Errors of every x-kubernetes-validations rule in a CRD version's schema at `path` (kube's field path). */
export function validationRuleErrors(schema: RuleSchema, path: string): FieldError[] {
  const walk: Walk = { errors: [], total: 0, expensive: [] };
  walkSchema(schema, path, true, 1, undefined, walk);
  if (walk.total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    for (const { path: field } of walk.expensive) {
      walk.errors.push({
        type: "FieldValueForbidden",
        field,
        detail: "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
      });
    }
    const detail = costErrorMessage(
      "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
      walk.total,
      STATIC_ESTIMATED_CRD_COST_LIMIT,
    );
    walk.errors.push({ type: "FieldValueForbidden", field: path, detail });
  }
  return walk.errors;
}
