import { expect, test } from "bun:test";
import { onRenewalTick } from "./renewal-tick.ts";

test("renewals of one period run in the same turn of the event loop, each on every tick, until unsubscribed", async () => {
  const turns: string[][] = [[]];
  let scheduled = false;
  const record = (name: string) => () => {
    turns.at(-1)!.push(name);
    // A new turn begins at the next macrotask: renewals recorded before it shared this one.
    if (!scheduled) {
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        turns.push([]);
      });
    }
  };
  const stopA = onRenewalTick(30, record("a"));
  await new Promise((resolve) => setTimeout(resolve, 10));
  const stopB = onRenewalTick(30, record("b"));
  while (turns.filter((turn) => turn.length > 0).length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
  stopA();
  stopB();
  const ticked = turns.filter((turn) => turn.length > 0);
  expect(ticked.slice(0, 2)).toEqual([["a", "b"], ["a", "b"]]);
});

test("an unsubscribed renewal stops while others of its period go on", async () => {
  let a = 0;
  let b = 0;
  const stopA = onRenewalTick(20, () => a++);
  const stopB = onRenewalTick(20, () => b++);
  stopA();
  while (b < 2) await new Promise((resolve) => setTimeout(resolve, 5));
  stopB();
  expect(a).toBe(0);
});
