/**
 * The server logs through core/log only (klog's verbosity and --logging-format): no console call in the code that
 * runs in the server. Tests, test kits, benches and scripts may print as they like; sub-commands write their output
 * with process.stdout.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const SERVER_CODE = ["core", "plugins", "auth-plugins", "admission-plugins"];
const CONSOLE_CALL = /\bconsole\.(log|error|warn|info|debug|trace)\(/;

function serverFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "testdata" && entry.name !== "node_modules") serverFiles(path, out);
    } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") && entry.name !== "testing.ts") {
      out.push(path);
    }
  }
  return out;
}

test("no console call in server code: everything logs through core/log", () => {
  const files = [...SERVER_CODE.flatMap((dir) => serverFiles(join(ROOT, dir))), join(ROOT, "main.ts"), join(ROOT, "plugin-set.ts")];
  expect(files.length).toBeGreaterThan(300);
  const offenders = files.filter((file) => CONSOLE_CALL.test(readFileSync(file, "utf8"))).map((file) => relative(ROOT, file));
  expect(offenders).toEqual([]);
});
