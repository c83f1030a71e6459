/** Webhook client credentials from --admission-control-config-file's WebhookAdmissionConfiguration (spec 5.12). */
import { afterAll, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configurationFor, reply, startWebhookServer, type TestWebhookServer } from "../admission-plugins/_webhook/testing.ts";
import { startServer, type TestServer } from "./harness.ts";
import { configMap, sendJson } from "./_api.ts";

let server: TestServer | undefined;
let hook: TestWebhookServer | undefined;
let dir = "";

afterAll(async () => {
  await server?.stop();
  await hook?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("the webhook receives the token of the kubeconfig user named after its host:port", async () => {
  hook = await startWebhookServer((review, call) => reply(review, { allowed: call.headers.authorization === "Bearer hook-secret" }));
  dir = await mkdtemp(join(tmpdir(), "kubun-webhook-auth-"));
  const kubeconfig = join(dir, "webhooks.kubeconfig");
  await writeFile(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nusers:\n- name: "127.0.0.1:${hook.port}"\n  user: {token: hook-secret}\n- name: "*"\n  user: {token: wrong}\n`,
  );
  const admissionConfig = join(dir, "admission.yaml");
  const section =
    `configuration: {apiVersion: apiserver.config.k8s.io/v1, kind: WebhookAdmissionConfiguration, kubeConfigFile: "${kubeconfig}"}`;
  await writeFile(
    admissionConfig,
    `apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ValidatingAdmissionWebhook\n  ${section}\n`,
  );
  server = await startServer(["--admission-control-config-file", admissionConfig]);
  const configuration = configurationFor("ValidatingWebhookConfiguration", "authed", hook);
  expect((await sendJson(server, "POST", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations", configuration)).status)
    .toBe(201);
  expect((await sendJson(server, "POST", "/api/v1/namespaces/default/configmaps", configMap("default", "authed"))).status).toBe(201);
  expect(hook.calls[0].headers.authorization).toBe("Bearer hook-secret");
});
