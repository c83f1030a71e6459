/**
 * End-to-end: the plugin author's tooling. `kubun sdk init` writes a project outside the repository, tsc checks it
 * against the generated kinds, `kubun admission test` runs its fixtures with no server, the compiled server loads
 * the plugin by path, and `compile.sh --plugin` bakes policies into a binary that enables them by name.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runKubun } from "./_kubun-process.ts";
import { type CommandResult, KUBUN_BINARY, startServer } from "./harness.ts";

const ROOT = resolve(import.meta.dir, "..");
const TSC = join(ROOT, "node_modules/.bin/tsc");
const POLICIES = join(ROOT, "plugins/policies");
/** Type-checking a project and compiling a binary take tens of seconds on a busy machine. */
const TSC_TIMEOUT_MS = 180_000;

function run(program: string, args: string[], cwd?: string): Promise<CommandResult> {
  return new Promise((done) => {
    execFile(program, args, { cwd, timeout: TSC_TIMEOUT_MS }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

let dir: string;
let project: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "kubun-sdk-"));
  project = join(dir, "policy");
  const init = await run(KUBUN_BINARY, ["sdk", "init", project]);
  expect(init).toMatchObject({ code: 0, stderr: "" });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

test("sdk init writes the SDK, a tsconfig, an example plugin and its fixtures, and never overwrites them", async () => {
  expect((await readdir(project)).sort()).toEqual(["README.md", "fixtures", "require-labels.ts", "sdk", "tsconfig.json"]);
  expect((await readdir(join(project, "sdk"))).sort()).toContain("kinds.gen.ts");
  const again = await run(KUBUN_BINARY, ["sdk", "init", project]);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain("not overwriting");
});

test("the project type-checks against the generated kinds, and a misspelt Pod field does not", async () => {
  expect(await run(TSC, ["-p", project])).toMatchObject({ code: 0, stdout: "" });
  const typo = `import { defineAdmissionPlugin, deny } from "./sdk/mod.ts";
export default defineAdmissionPlugin({
  name: "typo",
  handles: { operations: ["CREATE"], resources: ["pods"] },
  validate: (request) => request.object.spec?.containerz ? undefined : deny("no"),
});
`;
  const copy = join(dir, "typo-project");
  await run("cp", ["-r", project, copy]);
  await writeFile(join(copy, "typo.ts"), typo);
  const result = await run(TSC, ["-p", copy]);
  expect(result.code).not.toBe(0);
  expect(result.stdout).toContain("Property 'containerz' does not exist on type 'PodSpec'");
}, TSC_TIMEOUT_MS);

test("kubun admission test passes the project's fixtures in a PASS/FAIL table, and a wrong expectation fails with exit 1", async () => {
  const passed = await run(KUBUN_BINARY, ["admission", "test", "require-labels.ts", "--fixtures", "fixtures"], project);
  expect(passed.code).toBe(0);
  expect(passed.stdout).toMatch(/^FIXTURE +RESULT +REASON\n/);
  expect(passed.stdout).toMatch(/a pod without labels is denied +PASS +denied \(403\): missing required labels: app.kubernetes.io\/name/);
  expect(passed.stdout).toContain("4 passed, 0 failed");

  const broken = join(dir, "broken-fixtures");
  await mkdir(broken);
  await writeFile(
    join(broken, "wrong.yaml"),
    "name: unlabelled pod expected allowed\nobject: { apiVersion: v1, kind: Pod, metadata: { name: web, namespace: shop } }\nexpect: { allowed: true }\n",
  );
  const failed = await run(KUBUN_BINARY, ["admission", "test", join(project, "require-labels.ts"), "--fixtures", broken]);
  expect(failed.code).toBe(1);
  expect(failed.stdout).toMatch(/unlabelled pod expected allowed +FAIL +want allowed, got denied \(403\): missing required labels/);
  expect(failed.stdout).toContain("0 passed, 1 failed");
});

test("a fixture file that does not match the fixture shape is refused with its field path", async () => {
  const bad = join(dir, "bad-fixtures");
  await mkdir(bad);
  await writeFile(join(bad, "bad.yaml"), "name: no expectation\nobject: { kind: Pod, metadata: {} }\nexpect: { allowd: true }\n");
  const result = await run(KUBUN_BINARY, ["admission", "test", join(project, "require-labels.ts"), "--fixtures", bad]);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain("bad.yaml (document 1): [expect.allowed: Required value, expect.allowd: ");
});

test("every policy of the library passes its fixtures through kubun admission test", async () => {
  const policies = (await readdir(POLICIES)).filter((file) => /^[a-z][\w-]*\.ts$/.test(file) && !file.endsWith(".test.ts"));
  expect(policies.length).toBe(7);
  for (const policy of policies) {
    const fixtures = join(POLICIES, "fixtures", policy.replace(/\.ts$/, ".yaml"));
    const result = await run(KUBUN_BINARY, ["admission", "test", join(POLICIES, policy), "--fixtures", fixtures]);
    expect({ policy, code: result.code, failed: result.stdout.includes(" FAIL ") }).toEqual({ policy, code: 0, failed: false });
  }
});

test("the project's plugin, enabled by path in the compiled server, refuses kubectl with kube's Forbidden", async () => {
  const server = await startServer([`--enable-admission-plugins=${join(project, "require-labels.ts")}`]);
  try {
    const refused = await server.kubectl(["run", "web", "--image=nginx:1.25"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('pods "web" is forbidden: missing required labels: app.kubernetes.io/name');
    const labelled = await server.kubectl(["run", "web", "--image=nginx:1.25", "--labels=app.kubernetes.io/name=web"]);
    expect(labelled).toMatchObject({ code: 0, stdout: "pod/web created\n" });
  } finally {
    await server.stop();
  }
});

test("compile.sh --plugin bakes a policy into a binary that enables it by name; dist/kubun does not know the name", async () => {
  const binary = join(dir, "kubun-baked");
  const compiled = await run("bash", [join(ROOT, "compile.sh"), "--plugin", join(POLICIES, "disallow-latest-tag.ts"), "--outfile", binary]);
  expect(compiled.code).toBe(0);
  const server = await startServer(["--enable-admission-plugins=disallow-latest-tag"], { binary });
  try {
    const refused = await server.kubectl(["run", "web", "--image=nginx:latest"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('pods "web" is forbidden: containers[0]: image "nginx:latest" must name a tag other than latest');
    expect(await server.kubectl(["run", "web", "--image=nginx:1.25"])).toMatchObject({ code: 0 });
  } finally {
    await server.stop();
  }
  const plain = await runKubun(join(dir, "plain-data"), ["--enable-admission-plugins=disallow-latest-tag"]);
  expect(plain).toMatchObject({ exitCode: 1 });
  expect("log" in plain && plain.log).toContain('enable-admission-plugins plugin "disallow-latest-tag" is unknown');
}, TSC_TIMEOUT_MS);
