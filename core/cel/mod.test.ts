import { expect, test } from "bun:test";
import { type RuleSchema, ruleValidator, validationRuleErrors } from "./mod.ts";

const ROOT = "spec.validation.openAPIV3Schema";
const FAILING = [{ rule: "self.size() > 100", message: "too short" }];

/** The same failing rule at each place a schema can carry rules: a property, list items, map values. */
const PLACES: Record<string, { schema: RuleSchema; value: unknown; field: string }> = {
  property: {
    schema: { type: "object", properties: { name: { type: "string", "x-kubernetes-validations": FAILING } } },
    value: { name: "a" },
    field: "name",
  },
  items: {
    schema: {
      type: "object",
      properties: { names: { type: "array", items: { type: "string", "x-kubernetes-validations": FAILING } } },
    },
    value: { names: ["a"] },
    field: "names[0]",
  },
  additionalProperties: {
    schema: {
      type: "object",
      properties: { labels: { type: "object", additionalProperties: { type: "string", "x-kubernetes-validations": FAILING } } },
    },
    value: { labels: { k: "a" } },
    field: "labels[k]",
  },
};

test("the engine loaded on first use checks rules wherever they sit (ValidateCustomResourceDefinition, cel.Validator)", () => {
  for (const { schema, value, field } of Object.values(PLACES)) {
    expect(ruleValidator(schema)?.validate(value).map((e) => `${e.field}: ${e.detail}`)).toEqual([`${field}: too short`]);
    const broken = JSON.parse(JSON.stringify(schema).replace("self.size() > 100", "self.size() >"));
    expect(validationRuleErrors(broken, ROOT).map((e) => e.detail)[0]).toStartWith("compilation failed: ERROR: <input>:1:");
  }
});

test("a schema without rules has no rule errors and no validator, so the engine is not needed", () => {
  const schema: RuleSchema = { type: "object", properties: { spec: { type: "object", properties: { n: { type: "integer" } } } } };
  expect(validationRuleErrors(schema, ROOT)).toEqual([]);
  expect(ruleValidator(schema)).toBeUndefined();
});
