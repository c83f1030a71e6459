/**
 * dist/kubun runs with nothing beside it, and nothing in the directory it is started in changes it: Bun's compiled
 * executables load `.env` and `bunfig.toml` from there by default, which would set KUBUN_<FLAG> values unseen or
 * preload code into the server (compile.sh turns both off).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KUBUN_BINARY } from "./harness.ts";

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "kubun-cwd-"));
  await writeFile(join(scratch, ".env"), "KUBUN_MAX_REQUEST_BYTES=not-a-number\n");
  await writeFile(join(scratch, "preload.ts"), `require("node:fs").writeFileSync(${JSON.stringify(join(scratch, "preloaded"))}, "yes");\n`);
  await writeFile(join(scratch, "bunfig.toml"), 'preload = ["./preload.ts"]\n');
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

test("a .env and a bunfig.toml in the working directory are not read: the server starts with its flags alone", async () => {
  const child = spawn(KUBUN_BINARY, ["--secure-port", "0", "--bind-address", "127.0.0.1", "--data-dir", join(scratch, "data")], {
    cwd: scratch,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  const served = await new Promise<boolean>((resolve) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes("serving the Kubernetes API on")) resolve(true);
    });
    child.once("exit", () => resolve(false));
  });
  child.kill("SIGKILL");
  expect({ served, log: served ? "" : log }).toEqual({ served: true, log: "" });
  expect(await readFile(join(scratch, "preloaded"), "utf8").catch(() => "not preloaded")).toBe("not preloaded");
});
