import { expect, test } from "bun:test";
import { setImmediate } from "node:timers";
import { Wave } from "./_wave.ts";

test("requests added in one event-loop iteration run together in its check phase, in order, after its own work", async () => {
  const order: string[] = [];
  const wave = new Wave<string, number, boolean, string>((a, b, c, d) => order.push(`${a} ${b} ${c} ${d}`));
  wave.add("a", 1, true, "x");
  wave.add("b", 2, false, "y");
  queueMicrotask(() => order.push("microtask"));
  expect(order).toEqual([]);
  await new Promise((resolve) => setImmediate(resolve));
  expect(order).toEqual(["microtask", "a 1 true x", "b 2 false y"]);
});

test("a request added during a wave, or after it, waits for a wave of its own", async () => {
  const order: string[] = [];
  const wave: Wave<string, number, number, number> = new Wave((request) => {
    order.push(request);
    if (request === "first") wave.add("added while running", 0, 0, 0);
  });
  wave.add("first", 0, 0, 0);
  await new Promise((resolve) => setImmediate(resolve));
  expect(order).toEqual(["first"]);
  await new Promise((resolve) => setImmediate(resolve));
  expect(order).toEqual(["first", "added while running"]);
});

test("a request whose run throws costs the rest of its wave nothing", async () => {
  const ran: string[] = [];
  const wave = new Wave<string, number, number, number>((request) => {
    if (request === "bad") throw new Error("a bug");
    ran.push(request);
  });
  for (const request of ["first", "bad", "last"]) wave.add(request, 0, 0, 0);
  await new Promise((resolve) => setImmediate(resolve));
  expect(ran).toEqual(["first", "last"]);
});
