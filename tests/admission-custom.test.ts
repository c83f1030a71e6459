/** End-to-end: the compiled binary loads a custom TypeScript admission plugin from a temporary directory. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNamespace, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

// The bare contract, without the SDK (tests/plugin-sdk.test.ts covers SDK projects): the factory that
// defineAdmissionPlugin would build; type-only imports are erased.
const PLUGIN = `
import type { AdmissionPluginFactory } from "kubun/sdk";
const plugin = ({ pluginConfig }) => ({
  name: "require-team-label",
  // Controllers' writes are admitted too (kube-root-ca.crt by root-ca-cert-publisher): a policy exempts them as in kube.
  handles: (request) => request.resource.resource === "configmaps" && request.operation === "CREATE" && !request.user.username.startsWith("system:serviceaccount:kube-system:"),
  admit(request) {
    request.object.metadata.annotations = { ...request.object.metadata.annotations, "example.dev/checked-by": pluginConfig.checker };
  },
  validate(request) {
    if (!request.object.metadata.labels?.team) throw new Error("missing required label \\"team\\"");
    if (request.object.metadata.labels.team === "crash") throw new TypeError("oops");
  },
});
export default plugin;
`;

const CONFIG = `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: require-team-label
  configuration:
    checker: policy-bot
`;

let server: TestServer;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "kubun-admission-"));
  await writeFile(join(dir, "require-team-label.ts"), PLUGIN);
  await writeFile(join(dir, "admission.yaml"), CONFIG);
  server = await startServer([
    `--enable-admission-plugins=NamespaceLifecycle,${join(dir, "require-team-label.ts")}`,
    `--admission-control-config-file=${join(dir, "admission.yaml")}`,
  ]);
  await createNamespace(server, "team");
});
afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

test("kubectl is denied by the custom plugin with a 403", async () => {
  const result = await server.kubectl(["create", "configmap", "unlabelled", "-n", "team"]);
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain('configmaps "unlabelled" is forbidden: missing required label "team"');
});

test("the custom plugin's admit mutates the object with its configured value", async () => {
  const stdin = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: labelled\n  namespace: team\n  labels:\n    team: payments\n";
  const result = await server.kubectl(["create", "-f", "-", "-o", "jsonpath={.metadata.annotations}"], { stdin });
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout)).toEqual({ "example.dev/checked-by": "policy-bot" });
});

test("a plugin's programming error is a 500 Status and the server keeps serving", async () => {
  const answer = await sendJson(server, "POST", "/api/v1/namespaces/team/configmaps", {
    metadata: { name: "c", labels: { team: "crash" } },
  });
  expect(answer.status).toBe(500);
  expect(answer.body.message).toContain('admission plugin "require-team-label" failed: oops');
  expect((await sendJson(server, "GET", "/api/v1/namespaces/team/configmaps/labelled")).status).toBe(200);
});
