import { expect, test } from "bun:test";
import { DecisionCache } from "./cache.ts";

test("a cached decision is returned for the same token and audiences until the TTL passes", () => {
  let now = 0;
  const cache = new DecisionCache(1000, () => now);
  cache.set("token", ["a"], { kind: "not-mine" });
  expect(cache.get("token", ["a"])).toEqual({ kind: "not-mine" });
  expect(cache.get("token", ["b"])).toBeUndefined();
  expect(cache.get("other", ["a"])).toBeUndefined();
  now = 1000;
  expect(cache.get("token", ["a"])).toBeUndefined();
});

test("a TTL of zero caches nothing", () => {
  const cache = new DecisionCache(0);
  cache.set("token", [], { kind: "not-mine" });
  expect(cache.get("token", [])).toBeUndefined();
});
