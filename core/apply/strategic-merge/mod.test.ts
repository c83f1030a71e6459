import { expect, test } from "bun:test";
import { parse } from "yaml";
import { mergeItemLookup, mergeItemSchema } from "./_test-schema.ts";
import { StrategicMergeError, strategicMergePatch } from "./mod.ts";

type Doc = Record<string, unknown>;

const apply = (original: Doc, patch: Doc) => strategicMergePatch(original, patch, { schema: mergeItemSchema, lookup: mergeItemLookup });

// Cases from k8s.io/apimachinery strategicpatch patch_test.go: [description, current, patch, result] in YAML.
const CASES: [string, string, string, string][] = [
  ["unique scalars when merging lists", "mergingIntList: [1, 2]", "mergingIntList: [2, 3]", "mergingIntList: [1, 2, 3]"],
  ["delete map from nested map", "simpleMap: {key1: '1', key2: '1'}", "simpleMap: {$patch: delete}", "simpleMap: {}"],
  ["delete all items from merging list", "mergingList: [{name: '1'}, {name: '2'}]", "mergingList: [{$patch: replace}]", "mergingList: []"],
  ["delete all keys from map", "{name: '1', value: '1'}", "{$patch: replace}", "{}"],
  ["add key and delete all keys from map", "{name: '1', value: '1'}", "{other: a, $patch: replace}", "{other: a}"],
  [
    "de-duplicate entries in a merging list",
    "mergingList: [{name: '1'}, {name: '1'}, {name: '2', value: a}, {name: '3'}, {name: '3'}]",
    "mergingList: [{name: '1', $patch: delete}, {name: '3', $patch: delete}]",
    "mergingList: [{name: '2', value: a}]",
  ],
  [
    "retainKeys map can add a field without the directive",
    "retainKeysMap: {name: foo}",
    "retainKeysMap: {value: bar}",
    "retainKeysMap: {name: foo, value: bar}",
  ],
  [
    "retainKeys map can delete a field without the directive",
    "retainKeysMap: {name: foo, value: a}",
    "retainKeysMap: {value: null}",
    "retainKeysMap: {name: foo}",
  ],
  [
    "retainKeys list can change a field without the directive",
    "retainKeysMergingList: [{name: bar}, {name: foo, value: a}]",
    "retainKeysMergingList: [{name: foo, value: b}]",
    "retainKeysMergingList: [{name: bar}, {name: foo, value: b}]",
  ],
  [
    "preserve the order from the patch in a merging list",
    "mergingList: [{name: '1'}, {name: '2', value: b}, {name: '3'}]",
    "mergingList: [{name: '3', value: c}, {name: '1', value: a}, {name: '2', other: x}]",
    "mergingList: [{name: '3', value: c}, {name: '1', value: a}, {name: '2', value: b, other: x}]",
  ],
  [
    "preserve the order from the patch in a merging list 2",
    "mergingList: [{name: '1'}, {name: '2', value: b}, {name: '3'}]",
    "mergingList: [{name: '3', value: c}, {name: '1', value: a}]",
    "mergingList: [{name: '2', value: b}, {name: '3', value: c}, {name: '1', value: a}]",
  ],
  [
    "preserve the order from the patch in a merging int list",
    "mergingIntList: [1, 2, 3]",
    "mergingIntList: [3, 1]",
    "mergingIntList: [2, 3, 1]",
  ],
  [
    "$setElementOrder contains an item not in the list",
    "mergingList: [{name: '1'}, {name: '3'}]",
    "{$setElementOrder/mergingList: [{name: '3'}, {name: '2'}, {name: '1'}], mergingList: [{name: '3', value: '3'}, {name: '1', value: '1'}]}",
    "mergingList: [{name: '3', value: '3'}, {name: '1', value: '1'}]",
  ],
  [
    "$setElementOrder reorders an int list",
    "mergingIntList: [1, 3]",
    "$setElementOrder/mergingIntList: [3, 2, 1]",
    "mergingIntList: [3, 1]",
  ],
  ["nil original", "{name: '1', other: a}", "{value: '1'}", "{name: '1', value: '1', other: a}"],
  ["add field and delete field from map", "{name: '1', other: a}", "{name: null, value: '1'}", "{value: '1', other: a}"],
  [
    "delete field from nested map",
    "simpleMap: {key1: '1', key2: '1', other: a}",
    "simpleMap: {key2: null}",
    "simpleMap: {key1: '1', other: a}",
  ],
  ["replace list of scalars", "nonMergingIntList: [1, 4]", "nonMergingIntList: [2, 3]", "nonMergingIntList: [2, 3]"],
  [
    "delete all maps from merging list with conflict",
    "mergingList: [{name: '1', other: a}, {name: '2', other: b}]",
    "mergingList: [{name: '1', $patch: delete}, {name: '2', $patch: delete}]",
    "mergingList: []",
  ],
  ["defined null values do not propagate", "{name: a, other: a}", "{name: '1', value: '1', other: null}", "{name: '1', value: '1'}"],
  [
    "delete items in lists of scalars",
    "mergingIntList: [1, 2, 3, 4]",
    "{$setElementOrder/mergingIntList: [1, 2], $deleteFromPrimitiveList/mergingIntList: [3]}",
    "mergingIntList: [1, 2, 4]",
  ],
  [
    "delete all duplicate items in lists of scalars",
    "mergingIntList: [1, 2, 3, 3, 4]",
    "{$setElementOrder/mergingIntList: [1, 2], $deleteFromPrimitiveList/mergingIntList: [3]}",
    "mergingIntList: [1, 2, 4]",
  ],
  [
    "merge lists of maps",
    "mergingList: [{name: '1', other: a}, {name: '2', value: '2', other: b}]",
    "{$setElementOrder/mergingList: [{name: '4'}, {name: '1'}, {name: '2'}, {name: '3'}], mergingList: [{name: '4', value: '4'}, {name: '3', value: '3'}]}",
    "mergingList: [{name: '4', value: '4'}, {name: '1', other: a}, {name: '2', value: '2', other: b}, {name: '3', value: '3'}]",
  ],
  [
    "add field to map in merging list",
    "mergingList: [{name: '1', other: a}, {name: '2', value: '2', other: b}]",
    "{$setElementOrder/mergingList: [{name: '1'}, {name: '2'}], mergingList: [{name: '1', value: '1'}]}",
    "mergingList: [{name: '1', value: '1', other: a}, {name: '2', value: '2', other: b}]",
  ],
  [
    "a new element without an order directive leads the list",
    "mergingList: [{name: a}, {name: b}]",
    "mergingList: [{name: c}]",
    "mergingList: [{name: c}, {name: a}, {name: b}]",
  ],
  [
    "retainKeys clears the fields it does not list",
    "retainKeysMap: {name: foo, value: a, other: b}",
    "retainKeysMap: {$retainKeys: [name, other], other: c}",
    "retainKeysMap: {name: foo, other: c}",
  ],
  ["replace strategy replaces a map", "replacingItem: {a: 1, b: 2}", "replacingItem: {c: 3}", "replacingItem: {c: 3}"],
  ["a value of another type replaces", "mergingList: [{name: a}]", "mergingList: x", "mergingList: x"],
];

test.each(CASES)("strategicMergePatch: %s", (_name, current, patch, result) => {
  expect(apply(parse(current), parse(patch))).toEqual(parse(result));
});

test.each<[string, string, string, 400 | 422 | 500, string | RegExp]>([
  [
    "an order list that contradicts the patch",
    "mergingList: [{name: '1'}, {name: '3'}, {name: '2'}]",
    "{$setElementOrder/mergingList: [{name: '1'}, {name: '2'}, {name: '3'}], mergingList: [{name: '3'}, {name: '1'}]}",
    500,
    "The order in patch list:\n[map[name:3] map[name:1]]\n doesn't match $setElementOrder list:\n[map[name:1] map[name:2] map[name:3]]\n",
  ],
  [
    "an element without its merge key",
    "mergingList: [{name: '1', value: a}]",
    "mergingList: [{value: b}]",
    500,
    "map: map[value:b] does not contain declared merge key: name",
  ],
  [
    "an order directive that is not a list (mergePatchIntoOriginal's ErrBadArgType)",
    "mergingList: [{name: a}]",
    "$setElementOrder/mergingList: x",
    500,
    "expected a []interface {}, but received a string",
  ],
  [
    "a scalar in a list merged by key (validateMergeKeyInLists' ErrBadArgType)",
    "mergingList: [{name: a}]",
    "{$setElementOrder/mergingList: [{name: a}], mergingList: [1]}",
    500,
    "expected a map[string]interface {}, but received a int64",
  ],
  [
    "a retainKeys list missing a patched field",
    "retainKeysMap: {name: a}",
    "retainKeysMap: {$retainKeys: [name], value: b}",
    400,
    "invalid patch format of retainKeys",
  ],
  [
    "a malformed deletion directive",
    "mergingIntList: [1]",
    "$deleteFromPrimitiveListmergingIntList: [1]",
    400,
    "invalid patch format of primitive list",
  ],
  ["lists of lists", "mergingIntList: [[1]]", "mergingIntList: [[2]]", 422, "lists of lists are not supported"],
  ["an unknown map directive", "simpleMap: {a: b}", "simpleMap: {$patch: frob}", 500, "unknown patch type: frob in map: map[$patch:frob]"],
  [
    "a directive that is not a string",
    "simpleMap: {a: b}",
    "simpleMap: {$patch: 1}",
    500,
    "unknown patch type: %!s(int64=1) in map: map[$patch:1]",
  ],
  [
    "a merge directive in a list",
    "mergingList: [{name: a}]",
    "mergingList: [{$patch: merge}]",
    500,
    "merging lists cannot yet be specified in the patch",
  ],
])("strategicMergePatch rejects %s", (_name, current, patch, status, message) => {
  let caught: unknown;
  try {
    apply(parse(current), parse(patch));
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(StrategicMergeError);
  expect((caught as StrategicMergeError).status).toBe(status);
  expect((caught as StrategicMergeError).message).toMatch(message);
});

test("strategicMergePatch leaves its inputs unchanged", () => {
  const original = { mergingList: [{ name: "a", value: "1" }] };
  const patch = { mergingList: [{ name: "a", value: "2" }], $retainKeys: ["mergingList"] };
  apply(original, patch);
  expect(original).toEqual({ mergingList: [{ name: "a", value: "1" }] });
  expect(patch.$retainKeys).toEqual(["mergingList"]);
});

test("a '__proto__' member of a patch is an ordinary key of the result, never the result's prototype", () => {
  const patched = apply({ name: "a" }, JSON.parse('{"__proto__":{"annotations":{"s":"1"}}}')) as Record<string, unknown>;
  expect(patched.annotations).toBeUndefined();
  expect(Object.getPrototypeOf(patched)).toBe(Object.prototype);
  expect(JSON.stringify(patched)).toBe('{"name":"a","__proto__":{"annotations":{"s":"1"}}}');
});
