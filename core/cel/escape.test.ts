import { expect, test } from "bun:test";
import { escapePropertyName } from "./escape.ts";

// Facts from k8s.io/apiserver/pkg/cel escaping_test.go; the test code is this project's.
test("escapePropertyName() escapes CEL keywords and the characters kube allows (cel.Escape)", () => {
  expect(escapePropertyName("namespace")).toBe("__namespace__");
  expect(escapePropertyName("in")).toBe("__in__");
  expect(escapePropertyName("foo-bar")).toBe("foo__dash__bar");
  expect(escapePropertyName("foo.bar")).toBe("foo__dot__bar");
  expect(escapePropertyName("foo/bar")).toBe("foo__slash__bar");
  expect(escapePropertyName("foo__bar")).toBe("foo__underscores__bar");
  expect(escapePropertyName("plain_name")).toBe("plain_name");
});

test("escapePropertyName() leaves names a rule cannot reach unescaped", () => {
  expect(escapePropertyName("1leading")).toBeUndefined();
  expect(escapePropertyName("has space")).toBeUndefined();
  expect(escapePropertyName("")).toBeUndefined();
});
