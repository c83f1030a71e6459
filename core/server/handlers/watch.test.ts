import { expect, test } from "bun:test";
import { openSqliteStorage } from "../../storage/sqlite/mod.ts";
import { expiredStatus, watchTimeoutSeconds } from "./watch.ts";

test("ListResource: timeoutSeconds is kept when given and not 0", () => {
  expect(watchTimeoutSeconds(7, 1800)).toBe(7);
});

test("ListResource: without timeoutSeconds (or with 0) a watch lasts between --min-request-timeout and twice it", () => {
  for (const requested of [undefined, 0]) {
    const seconds = watchTimeoutSeconds(requested, 1800);
    expect(seconds).toBeGreaterThanOrEqual(1800);
    expect(seconds).toBeLessThan(3600);
  }
});

test("ListResource: --min-request-timeout=0 and no timeoutSeconds means no timeout", () => {
  expect(watchTimeoutSeconds(undefined, 0)).toBe(Infinity);
});

test("watchCache.getAllEventsSinceLocked: a 410's number in parentheses is the oldest resourceVersion a watch still starts from", async () => {
  const storage = openSqliteStorage(":memory:");
  try {
    let last = 0;
    for (const name of ["a", "b", "c", "d"]) {
      last = (await storage.write({ op: "create", key: `/core/configmaps/ns/${name}`, value: JSON.stringify({ metadata: { name } }) }))
        .modRevision;
    }
    await storage.compact(last - 1);
    const message = (expiredStatus("1", storage) as { message: string }).message;
    const oldest = Number(/^too old resource version: 1 \((\d+)\)$/.exec(message)![1]);
    expect((await storage.eventsSince("/core/configmaps/", oldest)).length).toBeGreaterThan(0);
    expect(storage.eventsSince("/core/configmaps/", oldest - 1)).rejects.toThrow("compacted");
  } finally {
    await storage.close();
  }
});
