import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storageContractSuite } from "../contract-suite.ts";
import { openSqliteStorage } from "./mod.ts";
import { withDatabasePath } from "./testing.ts";

const create = (key: string, value = "v") => ({ op: "create", key, value }) as const;

storageContractSuite("sqlite", (options) => Promise.resolve(openSqliteStorage(":memory:", options)));

test("sqlite: 200 concurrent writes are group-committed in one transaction", async () => {
  const storage = openSqliteStorage(":memory:");
  const results = await Promise.all(Array.from({ length: 200 }, (_, i) => storage.write(create(`/a/${i}`))));
  const revisions = results.map((kv) => kv.modRevision).sort((a, b) => a - b);
  expect(revisions).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
  expect(storage.stats()).toEqual({ transactions: 1, writes: 200 });
  await storage.close();
});

test("reopening a closed database keeps its data and revisions", async () => {
  const dir = mkdtempSync(join(tmpdir(), "kubun-sqlite-"));
  try {
    const path = join(dir, "state.db");
    const first = openSqliteStorage(path);
    await first.write(create("/a/1", "one"));
    await first.write(create("/a/2", "two"));
    await first.compact(1);
    await first.close();
    const second = openSqliteStorage(path);
    expect(second.currentRevision()).toBe(2);
    expect(second.compactedRevision()).toBe(1);
    expect((await second.get("/a/2"))?.value).toBe("two");
    expect((await second.write(create("/a/3"))).modRevision).toBe(3);
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Bytes this process has read through read(2)/pread(2), page-cache hits included (/proc/self/io's rchar). */
function bytesReadBySyscalls(): number {
  return Number(/^rchar: (\d+)$/m.exec(readFileSync("/proc/self/io", "utf8"))![1]);
}

test("releaseMemory gives the page cache back: reads take their pages from the file again, and answer the same", async () => {
  await withDatabasePath(async (path) => {
    const storage = openSqliteStorage(path);
    await Promise.all(Array.from({ length: 2000 }, (_, i) => storage.write(create(`/a/${i}`, "x".repeat(1024)))));
    const readAll = async () => {
      const before = bytesReadBySyscalls();
      const { items } = await storage.range("/a/");
      return { count: items.length, bytesRead: bytesReadBySyscalls() - before };
    };
    await readAll();
    const cached = await readAll();
    storage.releaseMemory();
    const released = await readAll();
    expect([cached.count, released.count]).toEqual([2000, 2000]);
    expect(released.bytesRead).toBeGreaterThan(2_000_000);
    expect(cached.bytesRead).toBeLessThan(released.bytesRead / 4);
    await storage.close();
  });
});

test("a read of an unchanged key answers the row it read before; any commit since is read from the file", async () => {
  const storage = openSqliteStorage(":memory:");
  await storage.write(create("/a/1", "one"));
  await storage.write(create("/a/2", "two"));
  const first = await storage.get("/a/1");
  expect(await storage.get("/a/1")).toBe(first!);
  await storage.write({ op: "update", key: "/a/2", value: "three", expectedRevision: 2 });
  const afterOther = await storage.get("/a/1");
  expect(afterOther).toEqual(first!);
  expect(afterOther).not.toBe(first!);
  await storage.write({ op: "update", key: "/a/1", value: "four", expectedRevision: 1 });
  expect(await storage.get("/a/1")).toMatchObject({ value: "four", modRevision: 4 });
  await storage.write({ op: "delete", key: "/a/1", expectedRevision: 4 });
  expect(await storage.get("/a/1")).toBeNull();
  await storage.close();
});
