import { expect, test } from "bun:test";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KUBUN_BINARY } from "../tests/harness.ts";
import { IDENTITY_LEASE_RENEW_INTERVAL_MS } from "../core/controllers/mod.ts";
import { IDLE_MS, npmStartFlags, recordBytecodeOrder } from "./record-bytecode-order.ts";

async function withTempDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "record-bytecode-order-test-"));
  try {
    await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test("the profiled server runs with npm start's flags", () => {
  expect(npmStartFlags()).toEqual(["--authorization-mode=Node,RBAC", "--enable-admission-plugins=NodeRestriction"]);
});

test("the restart is profiled idle past the identity lease's first renewal, the longest of an idle server's 10 s periods", () => {
  // Work an idle server first runs after the recording stopped lies among the cold bytecode, read a fault-around window
  // (64 KiB) at a time.
  expect(IDLE_MS).toBeGreaterThan(IDENTITY_LEASE_RENEW_INTERVAL_MS);
});

test("a start and a restart of the binary each write a bytecode profile, the restart's listed first", async () => {
  await withTempDir(async (dir) => {
    const prefix = join(dir, "order");
    expect(await recordBytecodeOrder(KUBUN_BINARY, prefix)).toBe(`${prefix}.restart,${prefix}.start`);
    for (const path of [`${prefix}.start`, `${prefix}.restart`]) {
      const lines = (await readFile(path, "utf8")).split("\n");
      // Thousands of functions run at start; a profile of a few would lay out nothing that matters.
      expect(lines.length).toBeGreaterThan(1000);
    }
  });
}, 120_000);

test("a binary that never becomes ready fails the recording with its output", async () => {
  await withTempDir(async (dir) => {
    const failing = join(dir, "failing");
    await writeFile(failing, "#!/bin/sh\necho 'cannot start: broken' >&2\nexit 1\n");
    await chmod(failing, 0o755);
    await expect(recordBytecodeOrder(failing, join(dir, "order"))).rejects.toThrow("cannot start: broken");
  });
});
