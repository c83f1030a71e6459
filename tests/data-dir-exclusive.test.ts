/**
 * One kubun process per data directory unless every process on it says --data-dir-shared: the server holds its
 * SQLite file in exclusive locking mode (core/storage/sqlite/schema.ts initializeSchema), so it writes no shared
 * wal-index (kubun.db-shm), also after a restart on a WAL database a kill -9 left behind; a second process, in
 * either mode, exits with code 1 and says why instead of waiting or answering "database is locked", and the first
 * keeps serving.
 */
import { afterAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
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

// A first server taking scheduled snapshots has completed one before the second process starts: its own reads of the
// database file must not have dropped its lock, exclusive or shared (core/storage/sqlite/live-copy.ts heldDescriptor).
const SNAPSHOTTING = ["--snapshot-schedule-cron=@every 1s"];

async function snapshotSaved(server: TestServer): Promise<void> {
  for (let i = 0; i < 300 && !server.log().includes("saved snapshot"); i++) await Bun.sleep(100);
  expect(server.log()).toContain("saved snapshot");
}

for (
  const [first, second] of [
    [SNAPSHOTTING, []],
    [[], ["--data-dir-shared"]],
    [["--data-dir-shared", ...SNAPSHOTTING], []],
  ]
) {
  test(
    `a second process on a data directory in use (first ${first.join(" ") || "exclusive"}, second ${
      second.join(" ") || "exclusive"
    }) exits with 1 and says why, leaving the first's serving certificate and key as they were; the first keeps serving`,
    async () => {
      const server = await serve(first);
      if (first.includes(SNAPSHOTTING[0]!)) await snapshotSaved(server);
      // The second process asks for an address the serving certificate does not name, which would reissue it
      // (pki.ts ensureCertificates); run.ts opens the store, the data directory's lock, before any PKI file is written.
      const servingFiles = ["apiserver.crt", "apiserver.key"].map((name) => join(server.dataDir, name));
      const digests = () => Promise.all(servingFiles.map(async (file) => createHash("sha256").update(await readFile(file)).digest("hex")));
      const before = await digests();
      const answer = await runKubun(server.dataDir, [...second, "--bind-address", "127.0.0.2"]);
      if ("started" in answer) await answer.started.stop();
      expect("started" in answer).toBe(false);
      expect(answer).toMatchObject({ exitCode: 1 });
      expect((answer as { log: string }).log).toContain(IN_USE(server.dataDir));
      expect((answer as { log: string }).log).not.toContain("database is locked");
      expect(await digests()).toEqual(before);
      await kubectlOk(server, ["create", "configmap", "still-serving", "--from-literal=a=b"]);
    },
  );
}
