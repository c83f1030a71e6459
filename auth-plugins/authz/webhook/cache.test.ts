import { expect, test } from "bun:test";
import { ExpiringCache } from "./cache.ts";

test("an entry is returned until its own TTL passes", () => {
  let now = 0;
  const cache = new ExpiringCache<string>(10, () => now);
  cache.set("short", "a", 100);
  cache.set("long", "b", 1000);
  now = 100;
  expect(cache.get("short")).toBeUndefined();
  expect(cache.get("long")).toBe("b");
});

test("a full cache drops the least recently used entry, and a TTL of zero caches nothing", () => {
  const cache = new ExpiringCache<string>(2, () => 0);
  cache.set("a", "1", 10);
  cache.set("b", "2", 10);
  cache.get("a");
  cache.set("c", "3", 10);
  expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual(["1", undefined, "3"]);
  cache.set("zero", "z", 0);
  expect(cache.get("zero")).toBeUndefined();
});
