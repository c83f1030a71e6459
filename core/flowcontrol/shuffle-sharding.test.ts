import { expect, test } from "bun:test";
import { dealHand, hashFlowID } from "./shuffle-sharding.ts";

test("Deal: a hand holds handSize distinct cards of the deck (kube's shufflesharding.Deal)", () => {
  for (let seed = 0n; seed < 200n; seed++) {
    const hand = dealHand(seed * 7919n + 12345678901n, 16, 4);
    expect(new Set(hand).size).toBe(4);
    for (const card of hand) expect(card >= 0 && card < 16).toBe(true);
  }
});

test("Deal: the mixed-radix digits of the hash pick the cards, later ones skipping earlier picks", () => {
  // 9 = 1 + 4*2 in radix (4, 3): remainders [1, 2]; the second card skips past card 1.
  expect(dealHand(9n, 4, 2)).toEqual([1, 3]);
  expect(dealHand(0n, 4, 3)).toEqual([0, 1, 2]);
});

test("hashFlowID is stable per (FlowSchema, distinguisher) and separates distinguishers", () => {
  expect(hashFlowID("global-default", "alice")).toBe(hashFlowID("global-default", "alice"));
  expect(hashFlowID("global-default", "alice")).not.toBe(hashFlowID("global-default", "bob"));
  expect(hashFlowID("a", "bc")).not.toBe(hashFlowID("ab", "c"));
});
