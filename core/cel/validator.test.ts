import { expect, test } from "bun:test";
import type { RuleSchema } from "./schema.ts";
import { PER_CALL_LIMIT, ruleValidator } from "./validator.ts";

const SCHEMA: RuleSchema = {
  type: "object",
  "x-kubernetes-validations": [{ rule: "self.metadata.name.startsWith('ok')", message: "name must start with ok" }],
  properties: {
    metadata: { type: "object" },
    spec: {
      type: "object",
      "x-kubernetes-validations": [{ rule: "self.min <= self.max" }],
      properties: {
        min: { type: "integer" },
        max: { type: "integer" },
        ratio: { type: "number", "x-kubernetes-validations": [{ rule: "self < 1.0" }] },
        size: {
          "x-kubernetes-int-or-string": true,
          "x-kubernetes-validations": [{ rule: "type(self) == string ? self.endsWith('%') : self > 0" }],
        },
        namespace: { type: "string", "x-kubernetes-validations": [{ rule: "self != 'kube-system'" }] },
        owner: { type: "string", "x-kubernetes-validations": [{ rule: "self == oldSelf", message: "owner is immutable" }] },
        tags: { type: "array", items: { type: "string", "x-kubernetes-validations": [{ rule: "self.size() <= 3" }] } },
        labels: { type: "object", additionalProperties: { type: "string", "x-kubernetes-validations": [{ rule: "self != ''" }] } },
        ports: {
          type: "array",
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["name"],
          items: {
            type: "object",
            properties: {
              name: { type: "string" },
              port: { type: "integer", "x-kubernetes-validations": [{ rule: "self >= oldSelf", message: "may only grow" }] },
            },
          },
        },
        hosts: {
          type: "array",
          items: { type: "object", properties: { port: { type: "integer", "x-kubernetes-validations": [{ rule: "self == oldSelf" }] } } },
        },
        frozen: {
          type: "object",
          "x-kubernetes-map-type": "atomic",
          properties: { value: { type: "string", "x-kubernetes-validations": [{ rule: "self == oldSelf" }] } },
        },
      },
    },
  },
};

const validator = ruleValidator(SCHEMA)!;

function obj(spec: Record<string, unknown>, name = "ok-1"): Record<string, unknown> {
  return { apiVersion: "example.com/v1", kind: "Widget", metadata: { name, namespace: "default" }, spec: { min: 1, max: 2, ...spec } };
}

function texts(errors: ReturnType<typeof validator.validate>): string[] {
  return errors.map((e) => `${e.field}: ${JSON.stringify(e.value)}: ${e.detail}`);
}

test("a valid object passes every rule", () => {
  expect(validator.validate(obj({ ratio: 0.5, size: "5%", tags: ["a"], labels: { a: "b" } }))).toEqual([]);
});

test("rules run at the root (<nil>), objects, scalars, list items and map values with kube's paths and messages (validateExpressions)", () => {
  const errors = validator.validate(obj({ min: 3, ratio: 2, size: 0, namespace: "kube-system", tags: ["long"], labels: { a: "" } }, "bad"));
  expect(texts(errors)).toEqual([
    '<nil>: "object": name must start with ok',
    'spec: "object": failed rule: self.min <= self.max',
    'spec.ratio: "number": failed rule: self < 1.0',
    "spec.size: \"\": failed rule: type(self) == string ? self.endsWith('%') : self > 0",
    "spec.namespace: \"string\": failed rule: self != 'kube-system'",
    'spec.tags[0]: "string": failed rule: self.size() <= 3',
    "spec.labels[a]: \"string\": failed rule: self != ''",
  ]);
});

test("transition rules are skipped on create and run against the correlated old value on update (validationActivationWithOldSelf)", () => {
  expect(validator.validate(obj({ owner: "me" }))).toEqual([]);
  expect(validator.validate(obj({ owner: "me" }), obj({ owner: "me" }))).toEqual([]);
  expect(texts(validator.validate(obj({ owner: "you" }), obj({ owner: "me" })))).toEqual(['spec.owner: "string": owner is immutable']);
  // A field that was absent before has no old value: the rule does not run.
  expect(validator.validate(obj({ owner: "you" }), obj({}))).toEqual([]);
});

test("list-type map items correlate by key; other lists and atomic maps do not (makeMapList, MapIsCorrelatable)", () => {
  const before = obj({ ports: [{ name: "a", port: 10 }, { name: "b", port: 10 }], hosts: [{ port: 1 }], frozen: { value: "x" } });
  const after = obj({
    ports: [{ name: "b", port: 5 }, { name: "a", port: 11 }, { name: "c", port: 1 }],
    hosts: [{ port: 2 }],
    frozen: { value: "y" },
  });
  expect(texts(validator.validate(after, before))).toEqual(['spec.ports[0].port: "integer": may only grow']);
});

test("property names are escaped as kube's cel.Escape: namespace is __namespace__", () => {
  const escaped = ruleValidator({
    type: "object",
    properties: {
      spec: {
        type: "object",
        properties: { namespace: { type: "string" } },
        "x-kubernetes-validations": [{ rule: "self.__namespace__ == 'a'" }],
      },
    },
  })!;
  expect(escaped.validate({ spec: { namespace: "a" } })).toEqual([]);
  expect(escaped.validate({ spec: { namespace: "b" } })).toHaveLength(1);
});

test("evaluation errors name the rule as kube does: no such key, no such overload, integer overflow, division by zero", () => {
  const failing = ruleValidator({
    type: "object",
    properties: {
      spec: {
        type: "object",
        properties: { a: { type: "string" }, n: { "x-kubernetes-int-or-string": true }, one: { type: "integer" } },
        "x-kubernetes-validations": [
          { rule: "self.a == 'x'" },
          { rule: "self.n + 1 > 0", message: "n positive" },
          { rule: "9223372036854775807 + 1 > 0" },
          { rule: "1 / (self.one - 1) == 1" },
        ],
      },
    },
  })!;
  expect(failing.validate({ spec: { n: "s", one: 1 } }).map((e) => e.detail)).toEqual([
    "no such key: a evaluating rule: self.a == 'x'",
    "'no such overload': call arguments did not match a supported operator, function or macro signature for rule: n positive",
    "integer overflow evaluating rule: 9223372036854775807 + 1 > 0",
    "division by zero evaluating rule: 1 / (self.one - 1) == 1",
  ]);
});

test("a rule over the per-call limit stops validation with kube's message (PerCallLimit)", () => {
  const costly = ruleValidator({
    type: "object",
    properties: {
      spec: {
        type: "object",
        properties: { items: { type: "array", items: { type: "string" } } },
        "x-kubernetes-validations": [{ rule: "self.items.all(x, self.items.all(y, x.contains(y)))" }, { rule: "false" }],
      },
    },
  })!;
  const items = Array.from({ length: 100 }, () => "x".repeat(1000));
  const errors = costly.validate({ spec: { items } });
  expect(PER_CALL_LIMIT).toBe(1_000_000);
  expect(errors.map((e) => e.detail)).toEqual([
    "'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.items.all(x, self.items.all(y, x.contains(y)))",
  ]);
});

test("rules beyond the object's cost budget are not run (RuntimeCELCostBudget)", () => {
  const many = ruleValidator({
    type: "object",
    properties: {
      spec: {
        type: "array",
        items: { type: "string", "x-kubernetes-validations": [{ rule: "self.contains('a') && self.contains('b')" }] },
      },
    },
  })!;
  const spec = Array.from({ length: 600 }, () => "ab".repeat(50_000));
  const errors = many.validate({ spec });
  expect(errors).toHaveLength(1);
  expect(errors[0].detail).toBe("validation failed due to running out of cost budget, no further validation rules will be run");
});

test("formats give rules timestamps and durations; embedded resources show apiVersion, kind and metadata.name (UnstructuredToVal)", () => {
  const typed = ruleValidator({
    type: "object",
    properties: {
      spec: {
        type: "object",
        properties: {
          at: { type: "string", format: "date-time" },
          every: { type: "string", format: "duration" },
          template: { type: "object", "x-kubernetes-embedded-resource": true },
        },
        "x-kubernetes-validations": [
          { rule: "self.at > timestamp('2020-01-01T00:00:00Z')", message: "too early" },
          { rule: "self.every < duration('1h')", message: "too slow" },
          { rule: "self.template.kind == 'Pod' && self.template.metadata.name.startsWith('p')", message: "not a p pod" },
        ],
      },
    },
  })!;
  const spec = {
    at: "2021-06-01T00:00:00Z",
    every: "30m",
    template: { apiVersion: "v1", kind: "Pod", metadata: { name: "pod", labels: {} } },
  };
  expect(typed.validate({ spec })).toEqual([]);
  const wrong = { at: "2019-06-01T00:00:00Z", every: "2h", template: { apiVersion: "v1", kind: "Pod", metadata: { name: "x" } } };
  expect(typed.validate({ spec: wrong }).map((e) => e.detail)).toEqual(["too early", "too slow", "not a p pod"]);
});

test("a null-valued field is absent to rules: has() is false (ValidationRule: null valued fields are treated as absent)", () => {
  const nullable = ruleValidator({
    type: "object",
    properties: {
      spec: {
        type: "object",
        properties: { a: { type: "string" } },
        "x-kubernetes-validations": [{ rule: "!has(self.a)", message: "a set" }],
      },
    },
  })!;
  expect(nullable.validate({ spec: { a: null } })).toEqual([]);
  expect(nullable.validate({ spec: { a: "x" } }).map((e) => e.detail)).toEqual(["a set"]);
});
