import { expect, test } from "bun:test";
import { mkdtemp, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { RotatingFile } from "./rotating-file.ts";

const LINE = `${"x".repeat(400 * 1024 - 1)}\n`;

test("lumberjack Logger.Write: rotates by size into timestamped backups, keeps maxBackups, gzips when compress", async () => {
  const dir = await mkdtemp(join(tmpdir(), "audit-rotate-"));
  const file = new RotatingFile(join(dir, "audit.log"), { maxSizeMB: 1, maxBackups: 2, maxAgeDays: 0, compress: true });
  for (let i = 0; i < 9; i++) {
    expect(file.write([LINE])).toEqual([undefined]);
    await Bun.sleep(2);
  }
  file.close();
  const names = (await readdir(dir)).sort();
  expect(names).toHaveLength(3);
  expect(names.at(-1)).toBe("audit.log");
  for (const name of names.slice(0, 2)) {
    expect(name).toMatch(/^audit-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}\.log\.gz$/);
    expect(gunzipSync(await readFile(join(dir, name))).length).toBe(2 * LINE.length);
  }
  expect((await stat(join(dir, "audit.log"))).mode & 0o777).toBe(0o600);
  expect((await stat(join(dir, "audit.log"))).size).toBe(LINE.length);
});

test("lumberjack Logger.Write: a write larger than the maximum size is refused", async () => {
  const dir = await mkdtemp(join(tmpdir(), "audit-rotate-"));
  const file = new RotatingFile(join(dir, "audit.log"), { maxSizeMB: 1, maxBackups: 0, maxAgeDays: 0, compress: false });
  const [refused] = file.write(["y".repeat(1024 * 1024 + 1)]);
  expect(refused?.message).toBe("write length 1048577 exceeds maximum file size 1048576");
});

test("lumberjack millRunOnce: backups older than maxAge days (by the time in their name) go at the next rotation", async () => {
  const dir = await mkdtemp(join(tmpdir(), "audit-rotate-"));
  await writeFile(join(dir, "audit-2020-01-02T03-04-05.000.log"), "old\n");
  await writeFile(join(dir, "unrelated-2020-01-02T03-04-05.000.log"), "not ours\n");
  const file = new RotatingFile(join(dir, "audit.log"), { maxSizeMB: 1, maxBackups: 0, maxAgeDays: 7, compress: false });
  for (let i = 0; i < 3; i++) file.write([LINE]);
  file.close();
  const names = (await readdir(dir)).sort();
  expect(names).not.toContain("audit-2020-01-02T03-04-05.000.log");
  expect(names).toContain("unrelated-2020-01-02T03-04-05.000.log");
  expect(names.filter((name) => /^audit-\d{4}/.test(name))).toHaveLength(1);
});

test("lumberjack Logger.Write per line: lines written together rotate where one-by-one writes would, a too-long one is refused alone", async () => {
  const dir = await mkdtemp(join(tmpdir(), "audit-rotate-"));
  const file = new RotatingFile(join(dir, "audit.log"), { maxSizeMB: 1, maxBackups: 0, maxAgeDays: 0, compress: false });
  const tooLong = "z".repeat(1024 * 1024 + 1);
  const errors = file.write([LINE, LINE, tooLong, LINE]);
  file.close();
  expect(errors.map((error) => error?.message)).toEqual([
    undefined,
    undefined,
    "write length 1048577 exceeds maximum file size 1048576",
    undefined,
  ]);
  const names = (await readdir(dir)).sort();
  expect(names).toHaveLength(2);
  expect((await stat(join(dir, names[0]!))).size).toBe(2 * LINE.length);
  expect((await stat(join(dir, "audit.log"))).size).toBe(LINE.length);
});
