import { expect, test } from "bun:test";
import * as v from "valibot";
import { ConfigFileError, duplicate, invalid, parseConfig } from "./validate.ts";

const PLUGINS = v.looseObject({
  kind: v.literal("AdmissionConfiguration"),
  plugins: v.array(
    v.looseObject({ name: v.string(), limit: v.optional(v.pipe(v.number(), v.check((n) => n > 0, invalid("must be positive")))) }),
  ),
});

test("parseConfig() returns the checked value, unknown fields kept", () => {
  expect(parseConfig(PLUGINS, { kind: "AdmissionConfiguration", plugins: [{ name: "a" }], extra: 1 }, "f")).toEqual({
    kind: "AdmissionConfiguration",
    plugins: [{ name: "a" }],
    extra: 1,
  });
});

test("parseConfig() names the source and each field path in kube's notation with kube's error types", () => {
  expect(() => parseConfig(PLUGINS, { kind: "Other", plugins: [{ name: 1 }, { name: "b", limit: -1 }] }, "/etc/a.yaml")).toThrow(
    '/etc/a.yaml: [kind: Unsupported value: "Other": supported values: "AdmissionConfiguration", plugins[0].name: Invalid value: 1: must be of type string, plugins[1].limit: Invalid value: -1: must be positive]',
  );
  expect(() => parseConfig(PLUGINS, { kind: "AdmissionConfiguration" }, "f")).toThrow(new ConfigFileError("f: plugins: Required value"));
});

test("duplicate() words a repeated entry as kube's field.Duplicate", () => {
  const unique = v.pipe(v.string(), v.check(() => false, duplicate));
  expect(() => parseConfig(unique, "x", "f")).toThrow('f: Duplicate value: "x"');
});
