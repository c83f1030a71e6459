/** `kubun kubeconfig --user NAME --group G`: a client certificate from the data dir's CA, used by kubectl. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { writeFile } from "node:fs/promises";
import { parse } from "yaml";
import { startServer, type TestServer } from "./harness.ts";
import { issueKubeconfig, kubectlWith, scratchDir, whoami, WHOAMI_AUTHORIZER, writeModule } from "./_authn.ts";

let server: TestServer;
let scratch: Awaited<ReturnType<typeof scratchDir>>;

beforeAll(async () => {
  scratch = await scratchDir();
  const authorizer = await writeModule(scratch.path, "whoami.ts", WHOAMI_AUTHORIZER);
  server = await startServer([`--authorization-mode=${authorizer}`]);
});

afterAll(async () => {
  await server?.stop();
  await scratch?.remove();
});

test("the printed kubeconfig authenticates kubectl as the user and groups asked for", async () => {
  const issued = await issueKubeconfig(["--user", "jane", "--group", "dev", "--group=ops", "--data-dir", server.dataDir]);
  expect(issued.stderr).toBe("");
  const config = parse(issued.stdout);
  expect(config.clusters[0].cluster.server).toBe(server.url);
  const path = join(scratch.path, "jane.kubeconfig");
  await writeFile(path, issued.stdout, { mode: 0o600 });
  expect(await whoami(path)).toEqual({ username: "jane", groups: ["dev", "ops", "system:authenticated"] });
  expect((await kubectlWith(path, ["get", "namespaces", "-o", "name"])).stdout).toContain("namespace/default");
});

test("the sub-command fails with a usage error without --user", async () => {
  const issued = await issueKubeconfig(["--data-dir", server.dataDir]);
  expect(issued.code).toBe(1);
  expect(issued.stderr).toContain('Error: required flag(s) "user" not set');
});
