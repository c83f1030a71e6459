import { expect, test } from "bun:test";
import { watchForLoad } from "./jit-policy.ts";

test("watchForLoad calls back once, at the first check that finds the process busy, and checks no more", async () => {
  const shares = [0.01, 0.1, 0.3, 0.9, 0.9];
  let checks = 0;
  let calls = 0;
  const busy = Promise.withResolvers<void>();
  watchForLoad(() => {
    calls++;
    busy.resolve();
  }, { intervalMs: 1, busyShare: 0.25, sample: () => shares[checks++] ?? 1 });
  await busy.promise;
  // Later intervals would find 0.9 again: the watch must be over.
  await Bun.sleep(20);
  expect(calls).toBe(1);
  expect(checks).toBe(3);
});

test("a stopped watch never calls back", async () => {
  let checks = 0;
  const watch = watchForLoad(() => {
    throw new Error("called after stop");
  }, {
    intervalMs: 1,
    busyShare: 0.25,
    sample: () => {
      checks++;
      return 0;
    },
  });
  while (checks < 2) await Bun.sleep(1);
  watch.stop();
  const seen = checks;
  await Bun.sleep(20);
  expect(checks).toBe(seen);
});
