import { expect, test } from "bun:test";
import { validateValue } from "./validate.ts";
import type { JSONSchemaProps } from "../../registry/apiextensions/mod.ts";

const SPEC: JSONSchemaProps = {
  type: "object",
  required: ["image"],
  properties: {
    image: { type: "string", minLength: 2, maxLength: 5, pattern: "^[a-z]+$" },
    replicas: { type: "integer", minimum: 1, maximum: 3 },
    mode: { type: "string", enum: ["a", "b"] },
    when: { type: "string", format: "date-time" },
    port: { "x-kubernetes-int-or-string": true },
    tags: { type: "array", maxItems: 2, items: { type: "string" }, "x-kubernetes-list-type": "set" },
    note: { type: "string", nullable: true },
  },
};

test("validateValue() words a wrong type as kube-openapi does", () => {
  expect(validateValue({ image: "ab", replicas: "two" }, SPEC, "spec")).toEqual([
    {
      type: "FieldValueTypeInvalid",
      field: "spec.replicas",
      value: "string",
      detail: 'spec.replicas in body must be of type integer: "string"',
    },
  ]);
});

test("validateValue() reports required, enum, bounds, length and pattern violations", () => {
  const errors = validateValue({ replicas: 0, mode: "c" }, SPEC, "spec").map((e) => `${e.type} ${e.field} ${e.detail}`);
  expect(errors).toEqual([
    "FieldValueRequired spec.image ",
    "FieldValueInvalid spec.replicas spec.replicas in body should be greater than or equal to 1",
    'FieldValueNotSupported spec.mode supported values: "a", "b"',
  ]);
  const strings = validateValue({ image: "ABCDEF" }, SPEC, "spec").map((e) => e.detail);
  expect(strings).toEqual(["may not be longer than 5", "spec.image in body should match '^[a-z]+$'"]);
});

test("validateValue() checks formats, int-or-string, nullable, maxItems and set uniqueness", () => {
  const errors = validateValue({ image: "ab", when: "yesterday", port: true, note: null, tags: ["x", "x", "y"] }, SPEC, "spec");
  expect(errors.map((e) => `${e.type} ${e.field}`)).toEqual([
    "FieldValueTypeInvalid spec.when",
    "FieldValueTypeInvalid spec.port",
    "FieldValueTooMany spec.tags",
    "FieldValueDuplicate spec.tags[1]",
  ]);
  expect(validateValue({ image: "ab", when: "2024-01-02T03:04:05Z", port: "http", note: null }, SPEC, "spec")).toEqual([]);
});

test("validateValue() finds duplicate keys of a map list, printed as Go's %#v of the key map (listtype.ValidateListSetsAndMaps)", () => {
  const schema: JSONSchemaProps = {
    type: "array",
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": ["name"],
    items: { type: "object", properties: { name: { type: "string" } } },
  };
  expect(validateValue([{ name: "a" }, { name: "a" }], schema, "spec.ports")).toEqual([
    {
      type: "FieldValueDuplicate",
      field: "spec.ports[1]",
      value: { name: "a" },
      valueText: 'map[string]interface {}{"name":"a"}',
      detail: "",
    },
  ]);
});
