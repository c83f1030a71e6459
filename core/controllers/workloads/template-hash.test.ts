import { expect, test } from "bun:test";
import { canonicalJson, fnv32a, templateHash } from "./template-hash.ts";

test("fnv32a() matches the reference FNV-1a values", () => {
  expect(fnv32a("")).toBe(0x811c9dc5);
  expect(fnv32a("a")).toBe(0xe40c292c);
});

test("templateHash() ignores key order and uses kube's safe alphabet", () => {
  const a = templateHash({ spec: { containers: [{ name: "c", image: "nginx" }] }, metadata: { labels: { app: "web" } } });
  const b = templateHash({ metadata: { labels: { app: "web" } }, spec: { containers: [{ image: "nginx", name: "c" }] } });
  expect(a).toBe(b);
  expect(a).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
});

test("templateHash() changes with the template and with the collision count", () => {
  const template = { spec: { containers: [{ name: "c", image: "nginx" }] } };
  expect(templateHash(template)).not.toBe(templateHash({ spec: { containers: [{ name: "c", image: "httpd" }] } }));
  expect(templateHash(template, 1)).not.toBe(templateHash(template));
});

test("canonicalJson() drops undefined fields", () => {
  expect(canonicalJson({ b: 1, a: undefined, c: [{ z: 1, y: 2 }] })).toBe('{"b":1,"c":[{"y":2,"z":1}]}');
});
