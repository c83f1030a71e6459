import { expect, test } from "bun:test";
import { costErrorMessage, validationRuleErrors } from "./crd-rules.ts";
import type { RuleSchema, ValidationRule } from "./schema.ts";

const ROOT = "spec.validation.openAPIV3Schema";

function specWith(rules: ValidationRule[]): RuleSchema {
  return {
    type: "object",
    properties: {
      spec: {
        type: "object",
        properties: { replicas: { type: "integer" }, name: { type: "string", maxLength: 10 } },
        "x-kubernetes-validations": rules,
      },
    },
  };
}

function texts(schema: RuleSchema): string[] {
  return validationRuleErrors(schema, ROOT).map((e) => `${e.field}: ${e.type}: ${e.detail}`);
}

const RULE = `${ROOT}.properties[spec].x-kubernetes-validations[0]`;

test("rules that compile give no errors", () => {
  expect(texts(specWith([{ rule: "self.replicas > 0 && self.name.startsWith('a')", message: "m" }]))).toEqual([]);
});

test("rules that do not compile are refused with cel-go's issues (Compile: compilation failed)", () => {
  expect(texts(specWith([{ rule: "self.replicas >" }]))[0]).toMatch(
    new RegExp(`^${RULE.replace(/[.[\]]/g, "\\$&")}\\.rule: FieldValueInvalid: compilation failed: ERROR: <input>:1:\\d+: Syntax error: `),
  );
  expect(texts(specWith([{ rule: "self.replica > 0" }]))).toEqual([
    `${RULE}.rule: FieldValueInvalid: compilation failed: ERROR: <input>:1:5: undefined field 'replica'\n | self.replica > 0\n | ....^`,
  ]);
  expect(texts(specWith([{ rule: "other > 0" }]))).toEqual([
    `${RULE}.rule: FieldValueInvalid: compilation failed: ERROR: <input>:1:1: undeclared reference to 'other' (in container '')\n | other > 0\n | ^`,
  ]);
  expect(texts(specWith([{ rule: "self.name.format([1]) == ''" }]))[0]).toContain("undeclared reference to 'format'");
  expect(texts(specWith([{ rule: "self.replicas + 1" }]))).toEqual([
    `${RULE}.rule: FieldValueInvalid: cel expression must evaluate to a bool`,
  ]);
  expect(texts(specWith([{ rule: "self.name.matches('[')" }]))).toEqual([
    `${RULE}.rule: FieldValueInvalid: program instantiation failed: error parsing regexp: missing closing ]: \`[\``,
  ]);
});

test("the compile error's value prints as Go's %#v of the 1.26 ValidationRule", () => {
  const [error] = validationRuleErrors(specWith([{ rule: "nope" }]), ROOT);
  expect(error.valueText).toBe('apiextensions.ValidationRule{Rule:"nope", Message:""}');
});

test("empty rules, blank messages and multi-line rules without a message are refused (ValidateCustomResourceDefinition)", () => {
  expect(texts(specWith([{ rule: " " }]))).toEqual([`${RULE}.rule: FieldValueRequired: rule is not specified`]);
  expect(texts(specWith([{ rule: "true", message: " " }]))).toEqual([
    `${RULE}.message: FieldValueInvalid: message must be non-empty if specified`,
  ]);
  expect(texts(specWith([{ rule: "true", message: "a\nb" }]))).toEqual([
    `${RULE}.message: FieldValueInvalid: message must not contain line breaks`,
  ]);
  expect(texts(specWith([{ rule: "true &&\ntrue" }]))).toEqual([
    `${RULE}.message: FieldValueRequired: message must be specified if rule contains line breaks`,
  ]);
});

test("oldSelf is refused below a list that is not a list-type map (forbidOldSelfValidations)", () => {
  const schema: RuleSchema = {
    type: "object",
    properties: {
      list: {
        type: "array",
        maxItems: 10,
        items: { type: "string", maxLength: 10, "x-kubernetes-validations": [{ rule: "self == oldSelf" }] },
      },
    },
  };
  expect(texts(schema)).toEqual([
    `${ROOT}.properties[list].items.x-kubernetes-validations[0].rule: FieldValueInvalid: oldSelf cannot be used on the uncorrelatable portion of the schema within ${ROOT}.properties[list]`,
  ]);
});

// The largest maxItems kube accepts for `self.all(x, x.contains('gpu'))` over strings of maxLength L, measured
// against apiextensions validation.ValidateCustomResourceDefinition: 16 → 909,090; 63 → 333,333; 253 → 94,339;
// 1,024 → 24,154. The estimate counts maxLength × 4 bytes per string, 0.1 per byte traversed, and the loop's own cost.
test("the estimated cost of a rule over a bounded list matches kube's accept/refuse boundary (StaticEstimatedCostLimit)", () => {
  const tags = (maxItems: number, maxLength: number): RuleSchema => ({
    type: "object",
    properties: {
      tags: {
        type: "array",
        maxItems,
        items: { type: "string", maxLength },
        "x-kubernetes-validations": [{ rule: "self.all(x, x.contains('gpu'))" }],
      },
    },
  });
  for (const [maxLength, maxItems] of [[16, 909_090], [63, 333_333], [253, 94_339], [1024, 24_154]]) {
    expect(validationRuleErrors(tags(maxItems, maxLength), ROOT)).toEqual([]);
    expect(texts(tags(maxItems + 1, maxLength))[0]).toMatch(
      /rule: FieldValueForbidden: estimated rule cost exceeds budget by factor of 1\.0000\d\dx/,
    );
  }
});

test("an unbounded quadratic rule is refused three ways: the rule, its share of the total, and the total", () => {
  const schema: RuleSchema = {
    type: "object",
    properties: {
      list: { type: "array", items: { type: "string" }, "x-kubernetes-validations": [{ rule: "self.all(x, self.all(y, x == y))" }] },
    },
  };
  const hint = "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";
  expect(texts(schema)).toEqual([
    `${ROOT}.properties[list].x-kubernetes-validations[0].rule: FieldValueForbidden: estimated rule cost exceeds budget by factor of more than 100x ${hint}`,
    `${ROOT}.properties[list].x-kubernetes-validations[0].rule: FieldValueForbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
    `${ROOT}: FieldValueForbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${hint}`,
  ]);
});

// (3 MiB - 2) / (2 + 1) = 1,048,575 items of at least `""` and a comma (estimateMaxArrayItemsFromMinSize), each
// costing 1 + ceil(0.1 × 64 × 4) = 27: 28.3 million, 2.8 times StaticEstimatedCostLimit.
test("rules below an unbounded list are multiplied by how many items a request can hold (getExpressionCost)", () => {
  const schema: RuleSchema = {
    type: "object",
    properties: {
      list: { type: "array", items: { type: "string", maxLength: 64, "x-kubernetes-validations": [{ rule: "self.contains('a')" }] } },
    },
  };
  expect(texts(schema)[0]).toContain(
    "properties[list].items.x-kubernetes-validations[0].rule: FieldValueForbidden: estimated rule cost exceeds budget by factor of 2.8x",
  );
});

test("costErrorMessage() prints the factor as getCostErrorMessage does", () => {
  expect(costErrorMessage("estimated rule cost", 12, 10)).toContain("factor of 1.200000x");
  expect(costErrorMessage("estimated rule cost", 25, 10)).toContain("factor of 2.5x");
  expect(costErrorMessage("estimated rule cost", 1001, 10)).toContain("factor of more than 100x");
});

test("operators need matching types, as cel-go without cross-type numeric comparisons (kube's environment before 1.28)", () => {
  expect(texts(specWith([{ rule: "self.replicas > 1.5" }]))).toEqual([
    `${RULE}.rule: FieldValueInvalid: compilation failed: ERROR: <input>:1:15: found no matching overload for '_>_' applied to '(int, double)'\n | self.replicas > 1.5\n | ..............^`,
  ]);
  expect(texts(specWith([{ rule: "self.name + self.replicas == 'a'" }]))[0]).toContain(
    "found no matching overload for '_+_' applied to '(string, int)'",
  );
  expect(texts(specWith([{ rule: "self.replicas % 2 == 0 && self.name + 'x' != 'y'" }]))).toEqual([]);
});

test("list literals mix no types (HomogeneousAggregateLiterals)", () => {
  expect(texts(specWith([{ rule: "self.replicas in [1, 'two']" }]))[0]).toContain(
    "compilation failed: ERROR: <input>:1:22: expected type 'int' but found 'string'",
  );
  expect(texts(specWith([{ rule: "self.name in ['a', 'b']" }]))).toEqual([]);
});

test("properties of unknown type (no type, or lists and maps of them) cannot be selected (SchemaDeclType)", () => {
  const schema: RuleSchema = {
    type: "object",
    properties: {
      spec: {
        type: "object",
        properties: { free: {}, list: { type: "array", items: {} }, known: { type: "array", items: { type: "string" } } },
        "x-kubernetes-validations": [{ rule: "has(self.free)" }, { rule: "has(self.list)" }, { rule: "has(self.known)" }],
      },
    },
  };
  expect(texts(schema).map((text) => text.split("\n")[0].replace(/^.*compilation failed: ERROR: <input>:\d+:\d+: /, ""))).toEqual([
    "undefined field 'free'",
    "undefined field 'list'",
  ]);
});

test("string methods need a string and their arguments' types, as cel-go's checker ('found no matching overload')", () => {
  expect(texts(specWith([{ rule: "self.replicas.startsWith('a')" }]))[0]).toContain(
    "found no matching overload for 'startsWith' applied to 'int.(string)'",
  );
  expect(texts(specWith([{ rule: "self.name.startsWith(1)" }]))[0]).toContain(
    "found no matching overload for 'startsWith' applied to 'string.(int)'",
  );
  expect(
    texts(specWith([{ rule: "self.name.indexOf('a', 1) >= 0 && self.name.substring(1).trim() != '' && self.name.find('[a-z]') != ''" }])),
  )
    .toEqual([]);
});

test("calls no overload takes are refused at creation with cel-go's checker message (found no matching overload)", () => {
  const issue = (rule: string) => texts(specWith([{ rule }]))[0]?.split("\n")[0].replace(/^.*compilation failed: ERROR: /, "");
  expect(issue("size(self.replicas) > 0")).toBe("<input>:1:5: found no matching overload for 'size' applied to '(int)'");
  expect(issue("self.replicas.size() > 0")).toBe("<input>:1:19: found no matching overload for 'size' applied to 'int.()'");
  expect(issue("self.replicas && true")).toBe("<input>:1:15: found no matching overload for '_&&_' applied to '(int, bool)'");
  expect(issue("!self.name")).toBe("<input>:1:1: found no matching overload for '!_' applied to '(string)'");
  expect(issue("-self.name == ''")).toBe("<input>:1:1: found no matching overload for '-_' applied to '(string)'");
  expect(issue("self.name[0] == 'a'")).toBe("<input>:1:10: found no matching overload for '_[_]' applied to '(string, int)'");
  expect(issue("'a' in self.name")).toBe("<input>:1:5: found no matching overload for '@in' applied to '(string, string)'");
  expect(issue("self.replicas ? true : false")).toBe("<input>:1:15: found no matching overload for '_?_:_' applied to '(int, bool, bool)'");
  expect(issue("self.replicas.sum() > 0")).toBe("<input>:1:18: found no matching overload for 'sum' applied to 'int.()'");
  expect(texts(specWith([{ rule: "size(self.name) > 0 && self.name.indexOf('a') >= 0 && !(self.replicas < 0)" }]))).toEqual([]);
});

// Below an unbounded list the bounds further down no longer multiply: the rule counts as often as values of its
// node's smallest JSON ("" and a comma: 3 bytes) fit in 3 MiB, 1,048,576 times 27.
test("below an unbounded list a rule counts MaxCardinality of its own node's smallest size (getExpressionCost)", () => {
  const schema: RuleSchema = {
    type: "object",
    properties: {
      outer: {
        type: "array",
        items: {
          type: "object",
          properties: {
            inner: {
              type: "array",
              maxItems: 10,
              items: { type: "string", maxLength: 64, "x-kubernetes-validations": [{ rule: "self.contains('a')" }] },
            },
          },
        },
      },
    },
  };
  expect(texts(schema)[0]).toContain("rule: FieldValueForbidden: estimated rule cost exceeds budget by factor of 2.8x");
  const bounded = structuredClone(schema);
  bounded.properties!.outer.maxItems = 100;
  // 100 × 10 × 27 = 27,000: well within the limit.
  expect(texts(bounded)).toEqual([]);
});
