/**
 * `kubun snapshot save|status|restore` against a serving, writing server: one consistent revision, restored
 * exactly, resourceVersions never reused and old ones answered 410.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type TestServer } from "./harness.ts";
import { startConfigMapWriters } from "./_writers.ts";
import { kubunCommand as kubun } from "./_kubun-process.ts";

const dir = await mkdtemp(join(tmpdir(), "kubun-snapshot-"));
const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  await rm(dir, { recursive: true, force: true });
});

const WRITERS = 16;

test("a snapshot taken under 16 writers restores exactly the writes acknowledged before it, at a bumped revision", async () => {
  const source = await startServer();
  servers.push(source);
  const writers = startConfigMapWriters(source, WRITERS);
  const acknowledged = writers.acknowledged;
  await Bun.sleep(500);
  const file = join(dir, "snap.db");
  const saved = await kubun(["snapshot", "save", file, "--data-dir", source.dataDir]);
  await Bun.sleep(300);
  await writers.stop();
  expect(saved).toMatchObject({ code: 0, stderr: "" });
  expect((await stat(file)).mode & 0o777).toBe(0o600);

  const status = JSON.parse((await kubun(["snapshot", "status", file, "-w", "json"])).stdout);
  expect(status.keys).toBeGreaterThan(0);
  expect(status.hash).toMatch(/^[0-9a-f]{64}$/);
  const before = acknowledged.filter((write) => write.revision <= status.revision);
  const after = acknowledged.filter((write) => write.revision > status.revision);
  expect(before.length).toBeGreaterThan(0);
  expect(after.length).toBeGreaterThan(0);

  const restoredDir = join(dir, "restored");
  const restored = await kubun(["snapshot", "restore", file, "--data-dir", restoredDir, "--bump-revision", "1000000"]);
  expect(restored).toMatchObject({ code: 0, stderr: "" });
  const target = await startServer([], { dataDir: restoredDir });
  servers.push(target);
  const list = await (await target.request("GET", "/api/v1/namespaces/default/configmaps")).json();
  const names = new Set<string>(list.items.map((item: { metadata: { name: string } }) => item.metadata.name));
  expect(before.filter((write) => !names.has(write.name))).toEqual([]);
  expect(after.filter((write) => names.has(write.name))).toEqual([]);
  expect(Number(list.metadata.resourceVersion)).toBeGreaterThanOrEqual(status.revision + 1_000_000);

  // A watch from a resourceVersion of the old server is 410 Gone: the client relists.
  const lastSeen = Math.max(...acknowledged.map((write) => write.revision));
  const watch = await target.request("GET", `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${lastSeen}&timeoutSeconds=1`);
  expect(await watch.text()).toContain('"code":410');
  const created = await target.request("POST", "/api/v1/namespaces/default/configmaps", {
    body: JSON.stringify({ metadata: { name: "after-restore" } }),
    headers: { "Content-Type": "application/json" },
  });
  expect(Number((await created.json()).metadata.resourceVersion)).toBeGreaterThan(lastSeen);
});

test("restore refuses a data directory that already holds a database, and save refuses to overwrite a file", async () => {
  const file = join(dir, "snap.db");
  expect((await kubun(["snapshot", "restore", file, "--data-dir", join(dir, "restored")])).stderr).toContain(
    "already exists; restore into a new data directory",
  );
  expect((await kubun(["snapshot", "save", file, "--data-dir", servers[0]!.dataDir])).code).not.toBe(0);
  expect((await kubun(["snapshot", "restore", file])).stderr).toContain('required flag(s) "data-dir" not set');
});

test("--snapshot-schedule-cron and --snapshot-retention keep the newest scheduled snapshots of the serving store", async () => {
  const dir2 = join(dir, "scheduled");
  const server = await startServer(["--snapshot-schedule-cron=@every 1s", "--snapshot-retention=2", `--snapshot-dir=${dir2}`]);
  servers.push(server);
  // Snapshots land every second; each one past the second prunes the oldest once it is complete (more files exist
  // only while snapshots are being written).
  const seen = new Set<string>();
  let files: string[] = [];
  for (let i = 0; i < 150 && !(seen.size >= 3 && files.length === 2); i++) {
    await Bun.sleep(100);
    files = (await readdir(dir2)).filter((name) => name.startsWith("kubun-snapshot-")).sort();
    for (const file of files) seen.add(file);
  }
  expect(seen.size).toBeGreaterThanOrEqual(3);
  expect(files).toHaveLength(2);
  // Stopped, the server takes no more snapshots, so the newer of the two seen last stays to be read.
  await server.terminate();
  const status = JSON.parse((await kubun(["snapshot", "status", join(dir2, files[1]!), "-w", "json"])).stdout);
  expect(status.keys).toBeGreaterThan(0);
});

test("a --snapshot-schedule-cron that does not parse stops start-up", async () => {
  const failure = await startServer(["--snapshot-schedule-cron=every day"]).then(
    async (started) => {
      await started.stop();
      return "started";
    },
    (error: Error) => error.message,
  );
  expect(failure).toContain('invalid snapshot schedule "every day"');
});
