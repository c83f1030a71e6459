/**
 * End-to-end: a custom plugin's validationActions (core/admission/enforcement.ts, kube's
 * ValidatingAdmissionPolicyBinding semantics): Deny refuses, Warn lets the write through with a Warning kubectl
 * prints, Audit lets it through with the validation_failure audit annotation; every refusal is an Event
 * (reason PolicyViolation) and each plugin is timed under kube's admission metric names.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNamespace, type Json } from "./_api.ts";
import { eventually, readEvents, writePolicy } from "./_audit.ts";
import { runKubun } from "./_kubun-process.ts";
import { startServer, type TestServer } from "./harness.ts";

// One plugin per mode, each looking after users' ConfigMaps in the namespace of its name (the controllers'
// kube-root-ca.crt is exempt, as a kube policy exempts system accounts).
const plugin = (name: string) => `
export default () => ({
  name: "${name}",
  handles: (request) => request.resource.resource === "configmaps" && request.namespace === "${name}" &&
    !request.user.username.startsWith("system:serviceaccount:kube-system:"),
  validate(request) {
    if (!request.object.metadata.labels?.team) throw new Error('missing required label "team"');
  },
});
`;

const CONFIG = `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: warned
  configuration:
    validationActions: [Warn]
- name: audited
  configuration:
    validationActions: [Audit]
`;

let server: TestServer;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "kubun-enforcement-"));
  await mkdirPlugins(dir);
  await writeFile(join(dir, "admission.yaml"), CONFIG);
  await writePolicy(
    join(dir, "audit-policy.yaml"),
    'rules:\n- level: Metadata\n  resources:\n  - group: ""\n    resources: [configmaps]\n',
  );
  server = await startServer([
    `--admission-plugin-dir=${join(dir, "plugins")}`,
    `--admission-control-config-file=${join(dir, "admission.yaml")}`,
    `--audit-policy-file=${join(dir, "audit-policy.yaml")}`,
    `--audit-log-path=${join(dir, "audit.log")}`,
  ]);
  for (const namespace of ["denied", "warned", "audited"]) await createNamespace(server, namespace);
});
afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

async function mkdirPlugins(root: string): Promise<void> {
  await mkdir(join(root, "plugins"));
  for (const name of ["denied", "warned", "audited"]) await writeFile(join(root, "plugins", `${name}.ts`), plugin(name));
}

async function violationEvents(namespace: string): Promise<Json[]> {
  const result = await server.kubectl(["get", "events", "-n", namespace, "-o", "json"]);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout).items.filter((event: Json) => event.reason === "PolicyViolation");
}

async function metrics(): Promise<string> {
  return await (await server.request("GET", "/metrics")).text();
}

test("Deny (the default) refuses the write with kube's 403 and records a PolicyViolation Event", async () => {
  const result = await server.kubectl(["create", "configmap", "unlabelled", "-n", "denied"]);
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain('configmaps "unlabelled" is forbidden: missing required label "team"');
  const event = await eventually(async () => (await violationEvents("denied"))[0], "the Deny event");
  expect(event).toMatchObject({
    type: "Warning",
    involvedObject: { kind: "ConfigMap", name: "unlabelled", namespace: "denied", apiVersion: "v1" },
    message: 'admission plugin "denied" (Deny): configmaps "unlabelled" is forbidden: missing required label "team"',
    source: { component: "kubun-admission" },
  });
});

test("Warn lets the write through and kubectl prints the refusal as a Warning", async () => {
  const result = await server.kubectl(["create", "configmap", "unlabelled", "-n", "warned"]);
  expect(result.code).toBe(0);
  expect(result.stderr).toContain(
    `Warning: Validation failed for admission plugin 'warned': configmaps "unlabelled" is forbidden: missing required label "team"`,
  );
  expect((await violationEvents("warned")).map((event) => event.involvedObject.name)).toEqual(["unlabelled"]);
});

test("Audit lets the write through silently and adds kube's validation_failure audit annotation", async () => {
  const result = await server.kubectl(["create", "configmap", "unlabelled", "-n", "audited"]);
  expect(result.code).toBe(0);
  expect(result.stderr).not.toContain("Warning");
  const event = await eventually(
    async () =>
      (await readEvents(join(dir, "audit.log"))).find((e) =>
        e.verb === "create" && e.objectRef?.namespace === "audited" && e.stage === "ResponseComplete"
      ),
    "the audited create",
  );
  expect(JSON.parse(event.annotations["validation.policy.admission.k8s.io/validation_failure"])).toEqual([
    { message: 'configmaps "unlabelled" is forbidden: missing required label "team"', policy: "audited", validationActions: ["Audit"] },
  ]);
  expect((await violationEvents("audited")).map((e) => e.involvedObject.name)).toEqual(["unlabelled"]);
});

test("each plugin is timed under kube's admission metrics (WithControllerMetrics, WithStepMetrics) and violations are counted", async () => {
  const text = await metrics();
  expect(text).toMatch(
    /apiserver_admission_controller_admission_duration_seconds_count\{name="denied",type="validate",operation="CREATE",rejected="true"\} [1-9]/,
  );
  expect(text).toMatch(
    /apiserver_admission_controller_admission_duration_seconds_count\{name="warned",type="validate",operation="CREATE",rejected="false"\} [1-9]/,
  );
  expect(text).toMatch(
    /apiserver_admission_step_admission_duration_seconds_count\{type="validate",operation="CREATE",rejected="true"\} [1-9]/,
  );
  expect(text).toMatch(/kubun_admission_plugin_violations_total\{name="audited",enforcement="Audit"\} 1/);
});

test("Deny and Warn together stop start-up naming the file and field", async () => {
  const config = join(dir, "bad-admission.yaml");
  await writeFile(config, CONFIG.replace("[Warn]", "[Deny, Warn]"));
  const answer = await runKubun(join(dir, "bad-data"), [
    `--admission-plugin-dir=${join(dir, "plugins")}`,
    `--admission-control-config-file=${config}`,
  ]);
  expect("exitCode" in answer && answer.exitCode).toBe(1);
  expect("log" in answer && answer.log).toContain(
    `${config}: plugins[0].configuration: validationActions: Invalid value: ["Deny","Warn"]: Deny and Warn may not be used together`,
  );
});
