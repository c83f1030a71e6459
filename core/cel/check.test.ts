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

test("`==` and `!=` take (A, A): the right operand must be assignable to the left's type (cel-go internalIsAssignable)", () => {
  // Objects agree only by type name, so two fields of different declared types never compare.
  expect(compileError("self.spec == self.template")).toBe(
    issue("self.spec == self.template", 11, "found no matching overload for '_==_' applied to '(selfType#.spec, selfType#.template)'"),
  );
  expect(compileError("self.spec != self.labels")).toBe(
    issue("self.spec != self.labels", 11, "found no matching overload for '_!=_' applied to '(selfType#.spec, map(string, string))'"),
  );
  expect(compileError("self.ports.exists(p, p == self.spec)")).toBe(
    issue(
      "self.ports.exists(p, p == self.spec)",
      24,
      "found no matching overload for '_==_' applied to '(selfType#.ports.@idx, selfType#.spec)'",
    ),
  );
  expect(compileError("self.spec == 'a'")).toBe(
    issue("self.spec == 'a'", 11, "found no matching overload for '_==_' applied to '(selfType#.spec, string)'"),
  );
  expect(compileError("self.owners == self.labels")).toBe(
    issue(
      "self.owners == self.labels",
      13,
      "found no matching overload for '_==_' applied to '(map(string, selfType#.owners.@elem), map(string, string))'",
    ),
  );
  // null is assignable only to objects, timestamps, durations and null (internalIsAssignableNull), and only on the right.
  expect(compileError("self.count == null")).toBe(
    issue("self.count == null", 12, "found no matching overload for '_==_' applied to '(int, null)'"),
  );
  expect(compileError("self.names != null")).toBe(
    issue("self.names != null", 12, "found no matching overload for '_!=_' applied to '(list(string), null)'"),
  );
  expect(compileError("null == self.spec")).toBe(
    issue("null == self.spec", 6, "found no matching overload for '_==_' applied to '(null, selfType#.spec)'"),
  );
  expect(compileError("null in self.names")).toBe(
    issue("null in self.names", 6, "found no matching overload for '@in' applied to '(null, list(string))'"),
  );
  expect(compileError("self.ports + [self.spec] == []")).toBe(
    issue(
      "self.ports + [self.spec] == []",
      12,
      "found no matching overload for '_+_' applied to '(list(selfType#.ports.@idx), list(selfType#.spec))'",
    ),
  );
  for (
    const rule of [
      "self.spec == null && self.ports[0] != null && null == null",
      "self.ports[0] == self.ports[1] && self.owners['a'] == self.owners['b'] && self.labels == self.labels",
      "self.size == self.spec && self.spec == self.size && self.names == [] && [] == self.ports",
      "self.ports + [self.ports[0]] == self.ports && self.ports[0] in self.ports",
    ]
  ) {
    expect(compileError(rule)).toBeUndefined();
  }
});

test("kube's list functions take only their element types (lists.go comparableTypes, summableTypes, list_a_index_of_int)", () => {
  expect(compileError("self.ports.isSorted()")).toBe(
    issue("self.ports.isSorted()", 20, "found no matching overload for 'isSorted' applied to 'list(selfType#.ports.@idx).()'"),
  );
  expect(compileError("self.names.sum() == ''")).toBe(
    issue("self.names.sum() == ''", 15, "found no matching overload for 'sum' applied to 'list(string).()'"),
  );
  expect(compileError("[self.labels].min() == self.labels")).toBe(
    issue("[self.labels].min() == self.labels", 18, "found no matching overload for 'min' applied to 'list(map(string, string)).()'"),
  );
  expect(compileError("[[1]].max() == [1]")).toBe(
    issue("[[1]].max() == [1]", 10, "found no matching overload for 'max' applied to 'list(list(int)).()'"),
  );
  expect(compileError("self.names.indexOf(1) == 0")).toBe(
    issue("self.names.indexOf(1) == 0", 19, "found no matching overload for 'indexOf' applied to 'list(string).(int)'"),
  );
  expect(compileError("self.names.lastIndexOf('a', 1) == 0")).toBe(
    issue(
      "self.names.lastIndexOf('a', 1) == 0",
      23,
      "found no matching overload for 'lastIndexOf' applied to 'list(string).(string, int)'",
    ),
  );
  for (
    const rule of [
      "self.names.isSorted() && self.names.min() <= self.names.max() && [1, 2].sum() == 3",
      "[duration('1s')].sum() > duration('0s') && [1.5].sum() > 1.0 && [b'a'].isSorted() && [true].max()",
      "self.ports.indexOf(self.ports[0]) == 0 && [].isSorted() && self.size.isSorted()",
    ]
  ) {
    expect(compileError(rule)).toBeUndefined();
  }
});

test("kube's URL functions take strings and URLs only (urls.go url, isURL, getScheme...)", () => {
  expect(compileError("isURL(self.count)")).toBe(
    issue("isURL(self.count)", 6, "found no matching overload for 'isURL' applied to '(int)'"),
  );
  expect(compileError("self.spec.replicas.getScheme() == ''")).toBe(
    issue("self.spec.replicas.getScheme() == ''", 29, "found no matching overload for 'getScheme' applied to 'int.()'"),
  );
  expect(compileError("'https://a'.isURL()")).toBe(
    issue("'https://a'.isURL()", 18, "found no matching overload for 'isURL' applied to 'string.()'"),
  );
  expect(compileError("isURL('https://a') && url('https://a').getHost() == 'a'")).toBeUndefined();
});

test("a conditional's branches and a literal's elements, keys and values join as cel-go's joinTypes (conditional(bool, A, A))", () => {
  expect(compileError("(true ? self.spec : self.template) == self.spec")).toBe(
    issue(
      "(true ? self.spec : self.template) == self.spec",
      7,
      "found no matching overload for '_?_:_' applied to '(bool, selfType#.spec, selfType#.template)'",
    ),
  );
  expect(compileError("(true ? self.count : 'a') == 1")).toBe(
    issue("(true ? self.count : 'a') == 1", 7, "found no matching overload for '_?_:_' applied to '(bool, int, string)'"),
  );
  expect(compileError("[self.spec, self.template].size() == 2")).toBe(
    issue("[self.spec, self.template].size() == 2", 17, "expected type 'selfType#.spec' but found 'selfType#.template'"),
  );
  expect(compileError("[self.names, [1]].size() == 2")).toBe(
    issue("[self.names, [1]].size() == 2", 14, "expected type 'list(string)' but found 'list(int)'"),
  );
  expect(compileError("{'a': 1, 'b': 'c'}.size() == 2")).toBe(
    issue("{'a': 1, 'b': 'c'}.size() == 2", 15, "expected type 'int' but found 'string'"),
  );
  expect(compileError("{'a': 1, 2: 1}.size() == 2")).toBe(
    issue("{'a': 1, 2: 1}.size() == 2", 10, "expected type 'string' but found 'int'"),
  );
  for (
    const rule of [
      "(true ? self.ports[0] : self.ports[1]) == self.ports[0] && (true ? [] : self.names) == self.names",
      "[[], self.names, [self.size]].size() == 3 && [self.size, 1, 'a'].size() == 3 && {'a': self.spec}.size() == 1",
    ]
  ) {
    expect(compileError(rule)).toBeUndefined();
  }
});
