import { expect, test } from "bun:test";
import { forgetOldest } from "./bounded.ts";

test("forgetOldest: past the limit the first inserted keys of a Map go, the newest stay", () => {
  const map = new Map([["a", 1], ["b", 2], ["c", 3]]);
  forgetOldest(map, 2);
  expect([...map.keys()]).toEqual(["b", "c"]);
  forgetOldest(map, 2);
  expect([...map.keys()]).toEqual(["b", "c"]);
});

test("forgetOldest: a key re-inserted on use is the most recent, so the least recently used goes (LRU)", () => {
  const map = new Map([["a", 1], ["b", 2]]);
  map.delete("a");
  map.set("a", 1);
  map.set("c", 3);
  forgetOldest(map, 2);
  expect([...map.keys()]).toEqual(["a", "c"]);
});

test("forgetOldest: a Set is trimmed the same way, and a limit of 0 forgets everything", () => {
  const set = new Set(["x", "y", "z"]);
  forgetOldest(set, 1);
  expect([...set]).toEqual(["z"]);
  forgetOldest(set, 0);
  expect(set.size).toBe(0);
});
