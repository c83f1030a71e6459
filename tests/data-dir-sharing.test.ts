/**
 * Several processes on one data directory, all started with --data-dir-shared (the README's promise): processes started at the same moment on an
 * empty directory create one CA, one serving and admin certificate and one database; a process restarted while
 * another writes comes up. Loops are bounded; each start has the harness's start-up limit.
 */
import { expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asAdminOnDisk, startKubun } from "./_kubun-process.ts";

const ROUNDS = 3;
// Every process on a shared data directory says so (without it the first holds the directory alone).
const FLAGS = ["--data-dir-shared", "--authorization-mode=Node,RBAC"];

test("two processes started at once on an empty data directory share one CA, certificates and database", async () => {
  for (let round = 0; round < ROUNDS; round++) {
    const dataDir = await mkdtemp(join(tmpdir(), "kubun-race-"));
    try {
      const [a, b] = await Promise.all([startKubun(dataDir, FLAGS), startKubun(dataDir, FLAGS)]);
      const name = `round-${round}`;
      const created = await asAdminOnDisk(dataDir, a.url, "/api/v1/namespaces", {
        method: "POST",
        body: JSON.stringify({ metadata: { name } }),
        headers: { "Content-Type": "application/json" },
      });
      expect(created.status).toBe(201);
      expect((await asAdminOnDisk(dataDir, b.url, `/api/v1/namespaces/${name}`)).status).toBe(200);
      expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }
}, 120_000);

test("a process restarted while another writes to the same data directory starts every time", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "kubun-restart-"));
  const writer = await startKubun(dataDir, FLAGS);
  let writing = true;
  let written = 0;
  const writes = (async () => {
    // Bounded: stops with the test, at most a few thousand objects.
    while (writing && written < 5000) {
      const response = await asAdminOnDisk(dataDir, writer.url, "/api/v1/namespaces/default/configmaps", {
        method: "POST",
        body: JSON.stringify({ metadata: { name: `w-${written}` } }),
        headers: { "Content-Type": "application/json" },
      });
      expect(response.status).toBe(201);
      written++;
    }
  })();
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const restarted = await startKubun(dataDir, FLAGS);
      expect((await asAdminOnDisk(dataDir, restarted.url, "/api/v1/namespaces/default")).status).toBe(200);
      expect(await restarted.stop()).toBe(0);
    }
  } finally {
    writing = false;
    await writes;
    await writer.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  expect(written).toBeGreaterThan(0);
}, 180_000);
