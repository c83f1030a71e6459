/**
 * A bad configuration file stops start-up with the file, the field path and the reason, as kube-apiserver refuses
 * a configuration it cannot use; nothing is served.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "./harness.ts";

const dir = await mkdtemp(join(tmpdir(), "kubun-config-files-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

/** The start-up error the server printed before exiting. */
async function startupError(flags: string[]): Promise<string> {
  const error = await startServer(flags).then(
    async (server) => {
      await server.stop();
      return new Error("the server started");
    },
    (failure: Error) => failure,
  );
  const printed = /^Error: (.*)$/m.exec(error.message);
  expect(printed, error.message).not.toBeNull();
  return printed![1]!;
}

test("--config: a value that is not a scalar", async () => {
  const path = await file("config.yaml", "secure-port: [1, 2]\n");
  expect(await startupError([`--config=${path}`])).toBe(`config file ${path}: secure-port: Invalid value: [1,2]: must be a scalar value`);
});

test("--admission-control-config-file: AdmissionConfiguration of the wrong kind", async () => {
  const path = await file("admission-kind.yaml", "apiVersion: apiserver.config.k8s.io/v1\nkind: Admission\nplugins: []\n");
  expect(await startupError([`--admission-control-config-file=${path}`])).toBe(
    `${path}: kind: Unsupported value: "Admission": supported values: "AdmissionConfiguration"`,
  );
});

test("--admission-control-config-file: a PodSecurityConfiguration level kube does not know", async () => {
  const path = await file(
    "admission-pod-security.yaml",
    "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  configuration:\n    apiVersion: pod-security.admission.config.k8s.io/v1\n    kind: PodSecurityConfiguration\n    defaults: {enforce: strict}\n",
  );
  expect(await startupError([`--admission-control-config-file=${path}`])).toBe(
    `${path}: plugins[0].configuration: PodSecurityConfiguration: defaults.enforce: Invalid value: "strict": must be one of privileged, baseline, restricted`,
  );
});

test("--admission-control-config-file: a WebhookAdmissionConfiguration with a relative kubeConfigFile", async () => {
  const path = await file(
    "admission-webhook.yaml",
    "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ValidatingAdmissionWebhook\n  configuration: {apiVersion: apiserver.config.k8s.io/v1, kind: WebhookAdmissionConfiguration, kubeConfigFile: hooks.yaml}\n",
  );
  expect(await startupError([`--admission-control-config-file=${path}`])).toBe(
    `${path}: plugins[0].configuration: WebhookAdmissionConfiguration: kubeConfigFile: Invalid value: "hooks.yaml": must be an absolute file path`,
  );
});

test("--admission-control-config-file: the webhook credentials kubeconfig it names", async () => {
  const kubeconfig = await file("hook-credentials.yaml", "users: [{name: '*', user: {token: [1]}}]\n");
  const path = await file(
    "admission-credentials.yaml",
    `apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: MutatingAdmissionWebhook\n  configuration: {apiVersion: apiserver.config.k8s.io/v1, kind: WebhookAdmissionConfiguration, kubeConfigFile: ${kubeconfig}}\n`,
  );
  expect(await startupError([`--admission-control-config-file=${path}`])).toBe(
    `${path}: plugins[0].configuration: ${kubeconfig}: users[0].user.token: Invalid value: [1]: must be of type string`,
  );
});

test("--authorization-policy-file: an ABAC line with a field of the wrong type", async () => {
  const line = JSON.stringify({
    apiVersion: "abac.authorization.kubernetes.io/v1beta1",
    kind: "Policy",
    spec: { user: "alice", readonly: "yes" },
  });
  const path = await file("abac.jsonl", `${line}\n`);
  expect(await startupError(["--authorization-mode=ABAC", `--authorization-policy-file=${path}`])).toBe(
    `error reading policy file ${path}, line 1: ${line}: Policy: spec.readonly: Invalid value: "yes": must be of type boolean`,
  );
});

test("--token-auth-file: a record with fewer than three columns", async () => {
  const path = await file("tokens.csv", "token1,alice\n");
  expect(await startupError([`--token-auth-file=${path}`])).toBe(
    `token file '${path}' must have at least 3 columns (token, user name, user uid), found 2`,
  );
});

test("--authentication-token-webhook-config-file: a cluster server that is not a URL", async () => {
  const path = await file("authn-webhook.yaml", "clusters: [{name: hook, cluster: {server: 'not a url'}}]\n");
  expect(await startupError([`--authentication-token-webhook-config-file=${path}`])).toBe(
    `${path}: clusters[0].cluster.server: Invalid value: "not a url": must be a URL`,
  );
});

test("--authorization-webhook-config-file: a context naming a cluster the file lacks", async () => {
  const path = await file(
    "authz-webhook.yaml",
    "clusters: [{name: a, cluster: {server: 'https://127.0.0.1:1'}}]\ncontexts: [{name: x, context: {cluster: b}}]\ncurrent-context: x\n",
  );
  expect(await startupError(["--authorization-mode=Webhook", `--authorization-webhook-config-file=${path}`])).toBe(
    `${path}: no cluster named "b"`,
  );
});
