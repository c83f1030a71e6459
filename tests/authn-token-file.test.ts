/** Static token file (--token-auth-file) with the real kubectl. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { writeFile } from "node:fs/promises";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlWith, scratchDir, whoami, WHOAMI_AUTHORIZER, writeModule, writeUserKubeconfig } from "./_authn.ts";

let server: TestServer;
let scratch: Awaited<ReturnType<typeof scratchDir>>;

beforeAll(async () => {
  scratch = await scratchDir();
  const tokens = join(scratch.path, "tokens.csv");
  await writeFile(tokens, 'alice-token,alice,uid-1,"dev,ops"\nbob-token,bob,uid-2\n');
  const authorizer = await writeModule(scratch.path, "whoami.ts", WHOAMI_AUTHORIZER);
  server = await startServer([`--token-auth-file=${tokens}`, `--authorization-mode=${authorizer}`]);
});

afterAll(async () => {
  await server?.stop();
  await scratch?.remove();
});

test("a token from the file authenticates as its user, uid and quoted groups, plus system:authenticated", async () => {
  const alice = await writeUserKubeconfig(server, scratch.path, "alice", { token: "alice-token" });
  expect(await whoami(alice)).toEqual({ username: "alice", uid: "uid-1", groups: ["dev", "ops", "system:authenticated"] });
  const bob = await writeUserKubeconfig(server, scratch.path, "bob", { token: "bob-token" });
  expect(await whoami(bob)).toEqual({ username: "bob", uid: "uid-2", groups: ["system:authenticated"] });
  const listed = await kubectlWith(alice, ["get", "namespaces", "-o", "name"]);
  expect(listed.stdout).toContain("namespace/default");
});

test("a token not in the file is 401 even though anonymous requests are allowed", async () => {
  const stranger = await writeUserKubeconfig(server, scratch.path, "stranger", { token: "no-such-token" });
  const result = await kubectlWith(stranger, ["get", "namespaces"]);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain("You must be logged in to the server (Unauthorized)");
});
