import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { maxConnectionsFor, openFileLimit } from "./file-limit.ts";

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            1024                 524288               files
`;

test("openFileLimit() reads the soft limit of /proc/self/limits", () => {
  expect(openFileLimit(LIMITS)).toBe(1024);
  expect(openFileLimit(LIMITS.replace("1024  ", "unlimited"))).toBeUndefined();
  expect(openFileLimit("")).toBeUndefined();
});

test("Bun raised this process's soft file limit to its hard limit at start", () => {
  const text = (() => {
    try {
      return readFileSync("/proc/self/limits", "utf8");
    } catch {
      return undefined;
    }
  })();
  if (text === undefined) return; // not Linux
  const [, soft, hard] = /^Max open files\s+(\S+)\s+(\S+)/m.exec(text)!;
  expect(soft).toBe(hard);
});

test("maxConnectionsFor() leaves room for the server's own files", () => {
  expect(maxConnectionsFor(1024)).toBe(896);
  expect(maxConnectionsFor(100)).toBe(16);
  expect(maxConnectionsFor(undefined)).toBe(10_000);
});
