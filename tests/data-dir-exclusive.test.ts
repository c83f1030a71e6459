/**
 * One kubun process per data directory unless every process on it says --data-dir-shared: the server holds its
 * SQLite file in exclusive locking mode (core/storage/sqlite/schema.ts initializeSchema), so it writes no shared
 * wal-index (kubun.db-shm), also after a restart on a WAL database a kill -9 left behind; a second process, in
 * either mode, exits with code 1 and says why instead of waiting or answering "database is locked", and the first
 * keeps serving.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";
import { runKubun } from "./_kubun-process.ts";

const scratch = await mkdtemp(join(tmpdir(), "kubun-exclusive-"));
const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  await rm(scratch, { recursive: true, force: true });
});

async function serve(flags: string[], dataDir?: string): Promise<TestServer> {
  const server = await startServer(flags, dataDir ? { dataDir } : {});
  servers.push(server);
  return server;
}

test("a server writes no kubun.db-shm, neither after writes nor restarted by kill -9 on its WAL database; --data-dir-shared does", async () => {
  const server = await serve([]);
  await kubectlOk(server, ["create", "configmap", "before", "--from-literal=a=b"]);
  const shm = join(server.dataDir, "kubun.db-shm");
  expect(existsSync(shm)).toBe(false);
  await server.kill9();
  expect(existsSync(join(server.dataDir, "kubun.db-wal"))).toBe(true);
  const restarted = await serve([], server.dataDir);
  await kubectlOk(restarted, ["create", "configmap", "after", "--from-literal=a=b"]);
  expect(await kubectlOk(restarted, ["get", "configmap", "before", "-o", "name"])).toContain("configmap/before");
  expect(existsSync(shm)).toBe(false);

  const shared = await serve(["--data-dir-shared"]);
  await kubectlOk(shared, ["create", "configmap", "shared", "--from-literal=a=b"]);
  expect(existsSync(join(shared.dataDir, "kubun.db-shm"))).toBe(true);
});

const IN_USE = (dir: string) =>
  `Error: data directory ${dir} is in use by another kubun process; to share one data directory, start every process on it with --data-dir-shared`;

// The first exclusive server takes scheduled snapshots meanwhile: its own reads of the database file must not drop its
// lock (core/storage/sqlite/live-copy.ts heldDescriptor).
const SNAPSHOTTING = ["--snapshot-schedule-cron=@every 1s"];

for (
  const [first, second] of [
    [SNAPSHOTTING, []],
    [[], ["--data-dir-shared"]],
    [["--data-dir-shared"], []],
  ]
) {
  test(
    `a second process on a data directory in use (first ${first.join(" ") || "exclusive"}, second ${
      second.join(" ") || "exclusive"
    }) exits with 1 and says why; the first keeps serving`,
    async () => {
      const server = await serve(first);
      const answer = await runKubun(server.dataDir, second);
      if ("started" in answer) await answer.started.stop();
      expect("started" in answer).toBe(false);
      expect(answer).toMatchObject({ exitCode: 1 });
      expect((answer as { log: string }).log).toContain(IN_USE(server.dataDir));
      expect((answer as { log: string }).log).not.toContain("database is locked");
      await kubectlOk(server, ["create", "configmap", "still-serving", "--from-literal=a=b"]);
    },
  );
}
