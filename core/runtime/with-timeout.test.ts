import { expect, test } from "bun:test";
import { withTimeout } from "./with-timeout.ts";

test("withTimeout answers the work's result in time, and fails with a Go context's deadline wording after it", async () => {
  expect(await withTimeout(Promise.resolve(7), 1000)).toBe(7);
  await expect(withTimeout(new Promise(() => {}), 5)).rejects.toThrow("context deadline exceeded");
});
