/**
 * End-to-end: a custom plugin in --admission-plugin-dir is reloaded when its file changes, without a restart
 * (core/admission/isolation/reload.ts): kubectl sees the new rule; a change that does not load keeps the
 * previous version active, with a log line and kubun_admission_plugin_reload_failures_total.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNamespace } from "./_api.ts";
import { eventually } from "./_audit.ts";
import { startServer, type TestServer } from "./harness.ts";

const policy = (label: string) => `
export default () => ({
  name: "required-label",
  handles: (request) => request.resource.resource === "configmaps" && request.namespace === "reload" &&
    !request.user.username.startsWith("system:serviceaccount:kube-system:"),
  validate(request) {
    if (!request.object.metadata.labels?.${label}) throw new Error('missing required label "${label}"');
  },
});
`;

let server: TestServer;
let dir: string;
let file: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "kubun-reload-"));
  await mkdir(join(dir, "policies"));
  file = join(dir, "policies", "required-label.ts");
  await writeFile(file, policy("team"));
  server = await startServer([`--admission-plugin-dir=${join(dir, "policies")}`]);
  await createNamespace(server, "reload");
});
afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

/** What the plugin answers a ConfigMap labelled team=a, asked with a server-side dry run. */
async function verdictOnTeamLabel(): Promise<string> {
  const result = await server.kubectl(["create", "-f", "-", "--dry-run=server"], {
    stdin: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: probe\n  namespace: reload\n  labels:\n    team: a\n",
  });
  return result.code === 0 ? "allowed" : result.stderr;
}

async function reloadFailures(): Promise<number> {
  const text = await (await server.request("GET", "/metrics")).text();
  return Number(/kubun_admission_plugin_reload_failures_total\{name="required-label"\} (\d+)/.exec(text)?.[1] ?? 0);
}

test("a changed plugin file is loaded and kubectl sees the new rule without a restart", async () => {
  expect(await verdictOnTeamLabel()).toBe("allowed");
  await writeFile(file, policy("owner"));
  const refused = await eventually(async () => {
    const verdict = await verdictOnTeamLabel();
    return verdict === "allowed" ? undefined : verdict;
  }, "the reloaded rule");
  expect(refused).toContain('configmaps "probe" is forbidden: missing required label "owner"');
  expect(server.log()).toContain(`plugin/admission ${file}] reloaded ${file}`);
});

test("a change that does not load keeps the previous version active, logged and counted", async () => {
  await writeFile(file, "export default () => ({ name: 'required-label', validate( { broken");
  await eventually(async () => (await reloadFailures()) >= 1 ? true : undefined, "the failed reload");
  expect(server.log()).toContain(`the changed ${file} did not load, the previous version stays active: cannot load admission plugin`);
  expect(await verdictOnTeamLabel()).toContain('missing required label "owner"');
  await writeFile(file, policy("team"));
  expect(await eventually(async () => (await verdictOnTeamLabel()) === "allowed" ? true : undefined, "the repaired plugin")).toBe(true);
});
