import { expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { credentialsLookup, kubeconfigPathOf, readCredentialsKubeconfig } from "./client-credentials.ts";

const users = new Map([
  ["hook.team.svc:8443", { token: "exact-port" }],
  ["*.team.svc:8443", { token: "wild-port" }],
  ["*.svc", { token: "wild-svc" }],
  ["other.example.com", { token: "url-host" }],
  ["*", { token: "default" }],
]);

test("credentialsLookup() prefers the exact name, then wildcard parents, then * ", () => {
  const lookup = credentialsLookup(users);
  expect(lookup("hook.team.svc:8443")?.token).toBe("exact-port");
  expect(lookup("other.team.svc:8443")?.token).toBe("wild-port");
  expect(lookup("hook.team.svc:9443")?.token).toBe("default");
  expect(lookup("other.example.com")?.token).toBe("url-host");
  expect(lookup("unknown.example.org")?.token).toBe("default");
});

test("credentialsLookup() retries a :443 target without its port", () => {
  const lookup = credentialsLookup(new Map([["*.svc", { token: "wild-svc" }]]));
  expect(lookup("hook.team.svc:443")?.token).toBe("wild-svc");
  expect(lookup("hook.team.svc:8443")).toBeUndefined();
});

test("credentialsLookup() falls back to the current context's user, else to none", () => {
  expect(credentialsLookup(new Map([["me", { username: "u" }]]), "me")("a.b")?.username).toBe("u");
  expect(credentialsLookup(new Map([["me", { username: "u" }]]))("a.b")).toBeUndefined();
});

test("readCredentialsKubeconfig() reads tokens, basic auth and client certificate data", async () => {
  const dir = await mkdtemp(join(tmpdir(), "kubun-webhook-creds-"));
  try {
    const path = join(dir, "kubeconfig.yaml");
    await writeFile(join(dir, "token.txt"), "from-file\n");
    await writeFile(
      path,
      [
        "apiVersion: v1",
        "kind: Config",
        "users:",
        "- name: '*.webhooks.svc'",
        "  user: {token: secret}",
        "- name: basic.example.com",
        "  user: {username: alice, password: pw}",
        `- name: cert.example.com`,
        `  user: {client-certificate-data: ${btoa("CERT")}, client-key-data: ${btoa("KEY")}}`,
        "- name: file.example.com",
        "  user: {tokenFile: token.txt}",
      ].join("\n"),
    );
    const lookup = await readCredentialsKubeconfig(path);
    expect(lookup("hook.webhooks.svc:443")).toMatchObject({ token: "secret" });
    expect(lookup("basic.example.com")).toMatchObject({ username: "alice", password: "pw" });
    expect(lookup("cert.example.com")).toMatchObject({ cert: "CERT", key: "KEY" });
    expect(lookup("file.example.com")).toMatchObject({ token: "from-file" });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("kubeconfigPathOf() accepts v1 and v1alpha1 configurations and insists on an absolute path", () => {
  expect(kubeconfigPathOf(undefined)).toBeUndefined();
  expect(
    kubeconfigPathOf({
      apiVersion: "apiserver.config.k8s.io/v1",
      kind: "WebhookAdmissionConfiguration",
      kubeConfigFile: "/etc/hooks.yaml",
    }),
  ).toBe("/etc/hooks.yaml");
  expect(kubeconfigPathOf({ apiVersion: "apiserver.k8s.io/v1alpha1", kind: "WebhookAdmission", kubeConfigFile: "/etc/old.yaml" })).toBe(
    "/etc/old.yaml",
  );
  expect(() =>
    kubeconfigPathOf({ apiVersion: "apiserver.config.k8s.io/v1", kind: "WebhookAdmissionConfiguration", kubeConfigFile: "rel.yaml" })
  ).toThrow("must be an absolute file path");
  expect(() => kubeconfigPathOf({ apiVersion: "v1", kind: "Other" })).toThrow(
    "WebhookAdmissionConfiguration: Unsupported value: expected kind WebhookAdmissionConfiguration in apiserver.config.k8s.io/v1",
  );
});
