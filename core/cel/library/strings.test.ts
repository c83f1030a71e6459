import { expect, test } from "bun:test";
import { celValue } from "./_expect.ts";
import { stringFunctions } from "./strings.ts";

// Facts from cel-go ext/strings_test.go of cel-go 0.12 (kube 1.26's ext.Strings); the test code is this project's.
test("the strings extension of kube 1.26: charAt, indexOf, lastIndexOf, lowerAscii, upperAscii, replace, split, substring, trim, join", () => {
  expect(celValue("'hello'.charAt(4)")).toBe("o");
  expect(celValue("'hello'.charAt(5)")).toBe("");
  expect(celValue("'hello mellow'.indexOf('ello', 2)")).toBe(7n);
  expect(celValue("'hello mellow'.lastIndexOf('ello')")).toBe(7n);
  expect(celValue("'TacoCat'.lowerAscii()")).toBe("tacocat");
  expect(celValue("'TacoCat'.upperAscii()")).toBe("TACOCAT");
  expect(celValue("'hello hello'.replace('he', 'we')")).toBe("wello wello");
  expect(celValue("'hello hello'.replace('he', 'we', 1)")).toBe("wello hello");
  expect(celValue("'hello world'.split(' ')")).toEqual(["hello", "world"]);
  expect(celValue("'hello world event'.split(' ', 0)")).toEqual([]);
  expect(celValue("'hello world event'.split(' ', 1)")).toEqual(["hello world event"]);
  expect(celValue("'hello world event'.split(' ', 2)")).toEqual(["hello", "world event"]);
  expect(celValue("'hello world event'.split(' ', -1)")).toEqual(["hello", "world", "event"]);
  expect(celValue("'👑ab'.split('')")).toEqual(["👑", "a", "b"]);
  expect(celValue("'tacocat'.substring(4)")).toBe("cat");
  expect(celValue("'tacocat'.substring(0, 4)")).toBe("taco");
  expect(celValue("' \\ttrim\\n '.trim()")).toBe("trim");
  expect(celValue("['x', 'y'].join()")).toBe("xy");
  expect(celValue("['x', 'y'].join('-')")).toBe("x-y");
});

test("format and strings.quote, added to cel-go after kube 1.26, are not there", () => {
  expect(stringFunctions.map((func) => func.name)).not.toContain("format");
  expect(stringFunctions.map((func) => func.name)).not.toContain("strings.quote");
});
