import { expect, test } from "bun:test";
import { takeTurn } from "./turns.ts";

test("takeTurn() lets one waiter run per event-loop iteration, with timers and I/O served in between", async () => {
  const order: string[] = [];
  const workers = ["a", "b"].map(async (name) => {
    for (let i = 0; i < 3; i++) {
      await takeTurn();
      order.push(`${name}${i}`);
    }
  });
  // A timer due now stands for I/O that arrives while the work runs: it must not wait for all six pieces.
  setTimeout(() => order.push("timer"), 0);
  await Promise.all(workers);
  expect(order.filter((entry) => entry !== "timer")).toEqual(["a0", "b0", "a1", "b1", "a2", "b2"]);
  expect(order.indexOf("timer")).toBeLessThan(order.length - 1);
});
