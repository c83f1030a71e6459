import { expect, test } from "bun:test";
import { compileRule } from "./compile.ts";
import type { RuleSchema } from "./schema.ts";

const SCHEMA: RuleSchema = {
  type: "object",
  properties: {
    count: { type: "integer" },
    size: { "x-kubernetes-int-or-string": true },
    names: { type: "array", items: { type: "string" } },
    ports: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } },
    labels: { type: "object", additionalProperties: { type: "string" } },
    owners: { type: "object", additionalProperties: { type: "object", properties: { id: { type: "string" } } } },
    spec: { type: "object", properties: { replicas: { type: "integer" } } },
    template: { type: "object", "x-kubernetes-embedded-resource": true, properties: { spec: { type: "object" } } },
  },
};

/** The compile error of `rule` at the schema above, with selfType<n> written selfType#. */
function compileError(rule: string): string | undefined {
  return compileRule({ rule }, SCHEMA, false).error?.detail.replace(/selfType\d+/g, "selfType#");
}

const issue = (rule: string, column: number, message: string) =>
  `compilation failed: ERROR: <input>:1:${column}: ${message}\n | ${rule}\n | ${".".repeat(column - 1)}^`;

test("functions called on a declared type no overload takes are refused at compilation (checker noMatchingOverload)", () => {
  expect(compileError("self.count.size() == 1")).toBe(
    issue("self.count.size() == 1", 16, "found no matching overload for 'size' applied to 'int.()'"),
  );
  expect(compileError("self.names.startsWith('a')")).toBe(
    issue("self.names.startsWith('a')", 22, "found no matching overload for 'startsWith' applied to 'list(string).(string)'"),
  );
  expect(compileError("self.labels.contains('a')")).toBe(
    issue("self.labels.contains('a')", 21, "found no matching overload for 'contains' applied to 'map(string, string).(string)'"),
  );
  expect(compileError("self.ports.join(',') == ''")).toBe(
    issue("self.ports.join(',') == ''", 16, "found no matching overload for 'join' applied to 'list(selfType#.ports.@idx).(string)'"),
  );
  expect(compileError("self.names == 1")).toBe(
    issue("self.names == 1", 12, "found no matching overload for '_==_' applied to '(list(string), int)'"),
  );
  expect(compileError("self.names + 'a' == []")).toBe(
    issue("self.names + 'a' == []", 12, "found no matching overload for '_+_' applied to '(list(string), string)'"),
  );
});

test("objects are named as Compile names kube's DeclTypes: selfType<n>, then .field, .@idx and .@elem (MaybeAssignTypeName)", () => {
  expect(compileError("self.spec.startsWith('a')")).toBe(
    issue("self.spec.startsWith('a')", 21, "found no matching overload for 'startsWith' applied to 'selfType#.spec.(string)'"),
  );
  expect(compileError("size(self.ports[0]) > 0")).toBe(
    issue("size(self.ports[0]) > 0", 5, "found no matching overload for 'size' applied to '(selfType#.ports.@idx)'"),
  );
  expect(compileError("self.owners.all(k, self.owners[k].endsWith('x'))")).toBe(
    issue(
      "self.owners.all(k, self.owners[k].endsWith('x'))",
      43,
      "found no matching overload for 'endsWith' applied to 'selfType#.owners.@elem.(string)'",
    ),
  );
  // Embedded resources show apiVersion, kind and metadata (WithTypeAndObjectMeta).
  expect(compileError("self.template.metadata.size() > 0")).toBe(
    issue("self.template.metadata.size() > 0", 28, "found no matching overload for 'size' applied to 'selfType#.template.metadata.()'"),
  );
  // generateUniqueSelfTypeName: selfType and the nanoseconds of the clock.
  expect(compileRule({ rule: "self.spec.size() > 0" }, SCHEMA, false).error?.detail).toMatch(/'selfType\d{1,9}\.spec\.\(\)'/);
});

test("ranges and field selections of the wrong type are refused (notAComprehensionRange, typeDoesNotSupportFieldSelection)", () => {
  expect(compileError("self.count.all(x, true)")).toBe(
    issue(
      "self.count.all(x, true)",
      5,
      "expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)",
    ),
  );
  expect(compileError("self.names.first == 'a'")).toBe(
    issue("self.names.first == 'a'", 11, "type 'list(string)' does not support field selection"),
  );
});

test("int-or-string is dyn and checked at run time; declared types that fit compile", () => {
  for (
    const rule of [
      "self.size.startsWith('a') || self.size > 1",
      "self.names.all(n, n.startsWith('a')) && self.names.indexOf('a') >= -1",
      "self.names + ['b'] == self.names || self.names == []",
      "self.ports.map(p, p.name).join(',') != '' || self.ports.exists(p, p == self.ports[0])",
      "self.labels.all(k, self.labels[k].size() < 64) && self.spec == self.spec",
      "self.template.metadata.name.startsWith('a') && self.template.spec == self.template.spec",
    ]
  ) {
    expect(compileError(rule)).toBeUndefined();
  }
});

test("indexes and `in` take the container's key and element types (index_list, index_map, in_list, in_map)", () => {
  expect(compileError("self.names['a'] == 'b'")).toBe(
    issue("self.names['a'] == 'b'", 11, "found no matching overload for '_[_]' applied to '(list(string), string)'"),
  );
  expect(compileError("self.labels[0] == 'b'")).toBe(
    issue("self.labels[0] == 'b'", 12, "found no matching overload for '_[_]' applied to '(map(string, string), int)'"),
  );
  expect(compileError("1 in self.names")).toBe(
    issue("1 in self.names", 3, "found no matching overload for '@in' applied to '(int, list(string))'"),
  );
  expect(compileError("1 in self.labels")).toBe(
    issue("1 in self.labels", 3, "found no matching overload for '@in' applied to '(int, map(string, string))'"),
  );
  expect(compileError("'a' in self.names && 'a' in self.labels && self.names[0] == self.labels['a']")).toBeUndefined();
});
