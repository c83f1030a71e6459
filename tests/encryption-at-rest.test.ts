/**
 * --encryption-provider-config (kube's EncryptionConfiguration): Secrets stored encrypted in kube's format, readable
 * after a restart, the documented key rotation with kubectl, and kube's error when no key fits.
 */
import { afterAll, expect, test } from "bun:test";
import { readFile, rm, writeFile } from "node:fs/promises";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";

const dir = mkdtempSync(join(tmpdir(), "kubun-encryption-"));
const SECRET_VALUE = "TopSecretValue-4711";
const CONFIG_VALUE = "PlainConfigValue-0815";
const key1 = randomBytes(32).toString("base64");
const key2 = randomBytes(32).toString("base64");
let server: TestServer | undefined;
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function config(name: string, providers: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(
    path,
    `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n- resources: [secrets]\n  providers:\n${providers}`,
    { mode: 0o600 },
  );
  return path;
}
const aescbc = (name: string, secret: string) => `  - aescbc: {keys: [{name: ${name}, secret: "${secret}"}]}\n`;

/** Everything SQLite has written: the database and its write-ahead log. */
async function databaseBytes(dataDir: string): Promise<string> {
  const files = ["kubun.db", "kubun.db-wal"].map((name) => join(dataDir, name)).filter(existsSync);
  return (await Promise.all(files.map((file) => readFile(file)))).map((bytes) => bytes.toString("latin1")).join("");
}

async function restartWith(configPath: string): Promise<TestServer> {
  const dataDir = server!.dataDir;
  await server!.terminate();
  server = await startServer([`--encryption-provider-config=${configPath}`], { dataDir });
  return server;
}

const secretValue = async (s: TestServer) =>
  Buffer.from(await kubectlOk(s, ["get", "secret", "s1", "-o", "jsonpath={.data.password}"]), "base64").toString();

test("a Secret is stored with kube's aescbc prefix and no plain text, while unlisted resources stay plain", async () => {
  server = await startServer([`--encryption-provider-config=${await config("key1.yaml", aescbc("key1", key1) + "  - identity: {}\n")}`]);
  await kubectlOk(server, ["create", "secret", "generic", "s1", `--from-literal=password=${SECRET_VALUE}`]);
  await kubectlOk(server, ["create", "configmap", "c1", `--from-literal=k=${CONFIG_VALUE}`]);
  const raw = await databaseBytes(server.dataDir);
  expect(raw).toContain("k8s:enc:aescbc:v1:key1:");
  expect(raw).not.toContain(Buffer.from(SECRET_VALUE).toString("base64"));
  expect(raw).not.toContain(SECRET_VALUE);
  expect(raw).toContain(CONFIG_VALUE);
  expect(await secretValue(server)).toBe(SECRET_VALUE);
});

test("the Secret reads back after a restart with the same configuration", async () => {
  const s = await restartWith(join(dir, "key1.yaml"));
  expect(await secretValue(s)).toBe(SECRET_VALUE);
});

test("kube's documented key rotation: add key2 first, rewrite every Secret with kubectl replace, drop key1", async () => {
  let s = await restartWith(await config("key2-key1.yaml", aescbc("key2", key2) + aescbc("key1", key1)));
  expect(await secretValue(s)).toBe(SECRET_VALUE);
  const all = await kubectlOk(s, ["get", "secrets", "-A", "-o", "json"]);
  await kubectlOk(s, ["replace", "-f", "-"], all);
  expect(await databaseBytes(s.dataDir)).toContain("k8s:enc:aescbc:v1:key2:");
  s = await restartWith(await config("key2.yaml", aescbc("key2", key2)));
  expect(await secretValue(s)).toBe(SECRET_VALUE);
});

test("without a key that fits, reading the Secret is kube's 500 'unable to transform key' and never garbage", async () => {
  const s = await restartWith(await config("other.yaml", aescbc("other", key1)));
  const response = await s.request("GET", "/api/v1/namespaces/default/secrets/s1");
  expect(response.status).toBe(500);
  expect((await response.json()).message).toBe(
    'Internal error occurred: unable to transform key "/core/secrets/default/s1": no matching prefix found',
  );
});

test("--encryption-provider-config-automatic-reload takes a changed file without a restart and keeps the old one when the new is bad", async () => {
  const path = await config("reloaded.yaml", aescbc("key1", key1));
  await server!.terminate();
  const s = await startServer([`--encryption-provider-config=${path}`, "--encryption-provider-config-automatic-reload"], {
    dataDir: join(dir, "reload-data"),
  });
  server = s;
  await kubectlOk(s, ["create", "secret", "generic", "before", "--from-literal=k=v"]);
  await writeFile(path, await readFile(join(dir, "key2-key1.yaml"), "utf8"));
  const metric = async (name: string) =>
    Number(new RegExp(`^${name} (\\d+)`, "m").exec(await (await s.request("GET", "/metrics")).text())?.[1] ?? 0);
  for (let i = 0; i < 100 && (await metric("apiserver_encryption_config_controller_automatic_reload_success_total")) === 0; i++) {
    await Bun.sleep(100);
  }
  await kubectlOk(s, ["create", "secret", "generic", "after", "--from-literal=k=v"]);
  const raw = await databaseBytes(s.dataDir);
  expect(raw).toContain("k8s:enc:aescbc:v1:key2:");
  expect(Buffer.from(await kubectlOk(s, ["get", "secret", "before", "-o", "jsonpath={.data.k}"]), "base64").toString()).toBe("v");

  await writeFile(path, "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources: []\n");
  for (let i = 0; i < 100 && (await metric("apiserver_encryption_config_controller_automatic_reload_failures_total")) === 0; i++) {
    await Bun.sleep(100);
  }
  expect(await metric("apiserver_encryption_config_controller_automatic_reload_failures_total")).toBe(1);
  expect(Buffer.from(await kubectlOk(s, ["get", "secret", "after", "-o", "jsonpath={.data.k}"]), "base64").toString()).toBe("v");
  const transformations = await (await s.request("GET", "/metrics")).text();
  expect(transformations).toMatch(
    /apiserver_storage_transformation_operations_total\{transformation_type="to_storage",transformer_prefix="k8s:enc:aescbc:v1:key2:",status="OK"\} [1-9]/,
  );
  expect(transformations).toMatch(
    /apiserver_storage_transformation_operations_total\{transformation_type="from_storage",transformer_prefix="k8s:enc:aescbc:v1:key1:",status="OK"\} [1-9]/,
  );
});
