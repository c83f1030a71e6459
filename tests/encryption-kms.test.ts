/**
 * The kms provider of --encryption-provider-config: kube's KMS plugin gRPC API on a unix socket (v1beta1 and
 * v2alpha1, served by the test process with kms/testdata/kms-plugin-server.ts), and a KMS plugin written as a
 * TypeScript module (`endpoint: module://...`), driven through the compiled server with kubectl.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";
import { startKmsServer } from "../core/storage/encryption/kms/testdata/kms-plugin-server.ts";
import { runKubun } from "./_kubun-process.ts";

const dir = mkdtempSync(join(tmpdir(), "kubun-kms-e2e-"));
const SECRET_VALUE = "KmsProtected-2718";
const running: { stop(): Promise<void> }[] = [];
afterAll(async () => {
  for (const item of running.reverse()) await item.stop();
  await rm(dir, { recursive: true, force: true });
});

async function config(name: string, kms: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(
    path,
    `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n- resources: [secrets]\n  providers:\n  - kms: ${kms}\n  - identity: {}\n`,
    { mode: 0o600 },
  );
  return path;
}

async function databaseBytes(dataDir: string): Promise<string> {
  const files = ["kubun.db", "kubun.db-wal"].map((name) => join(dataDir, name)).filter(existsSync);
  return (await Promise.all(files.map((file) => readFile(file)))).map((bytes) => bytes.toString("latin1")).join("");
}

async function start(flags: string[], dataDir?: string): Promise<TestServer> {
  const server = await startServer(flags, dataDir ? { dataDir } : {});
  running.push(server);
  return server;
}

const secretValue = async (server: TestServer) =>
  Buffer.from(await kubectlOk(server, ["get", "secret", "s1", "-o", "jsonpath={.data.password}"]), "base64").toString();

async function healthz(server: TestServer, path = "/healthz?verbose"): Promise<{ status: number; body: string }> {
  const response = await server.request("GET", path);
  return { status: response.status, body: await response.text() };
}

test("KMS v1 over a unix socket: Secrets stored as k8s:enc:kms:v1:<name>:, readable after a restart, health check kms-provider-0", async () => {
  const plugin = await startKmsServer("v1", dir);
  running.push(plugin);
  const path = await config("kms-v1.yaml", `{name: test-v1, endpoint: "${plugin.endpoint}", cachesize: 100, timeout: 3s}`);
  let server = await start([`--encryption-provider-config=${path}`]);
  await kubectlOk(server, ["create", "secret", "generic", "s1", `--from-literal=password=${SECRET_VALUE}`]);
  const raw = await databaseBytes(server.dataDir);
  expect(raw).toContain("k8s:enc:kms:v1:test-v1:");
  expect(raw).not.toContain(SECRET_VALUE);
  expect(raw).not.toContain(Buffer.from(SECRET_VALUE).toString("base64"));
  // The DEK of a value written here is cached: reading it needs no plugin call.
  const decryptsBefore = plugin.calls.decrypt;
  expect(await secretValue(server)).toBe(SECRET_VALUE);
  expect(plugin.calls.decrypt).toBe(decryptsBefore);
  expect((await healthz(server)).body).toContain("[+]kms-provider-0 ok\n");

  // A new process starts with an empty DEK cache: the plugin decrypts the stored DEK.
  await server.terminate();
  server = await start([`--encryption-provider-config=${path}`], server.dataDir);
  expect(await secretValue(server)).toBe(SECRET_VALUE);
});

test("KMS v2 over a unix socket: the EncryptedObject under k8s:enc:kms:v2:<name>:, and writes fail while the plugin cannot encrypt", async () => {
  const plugin = await startKmsServer("v2", dir);
  running.push(plugin);
  const path = await config("kms-v2.yaml", `{apiVersion: v2, name: test-v2, endpoint: "${plugin.endpoint}"}`);
  const server = await start([`--encryption-provider-config=${path}`]);
  await kubectlOk(server, ["create", "secret", "generic", "s1", `--from-literal=password=${SECRET_VALUE}`]);
  const raw = await databaseBytes(server.dataDir);
  expect(raw).toContain("k8s:enc:kms:v2:test-v2:");
  expect(raw).not.toContain(SECRET_VALUE);
  expect(await secretValue(server)).toBe(SECRET_VALUE);
  // kube names one check kms-providers when only KMS v2 providers are configured.
  expect((await healthz(server)).body).toContain("[+]kms-providers ok\n");
  plugin.setHealthy(false);
  // Writes need the plugin; the failure is kube's 500 and nothing is stored.
  const refused = await server.kubectl(["create", "secret", "generic", "s2", "--from-literal=k=v"]);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toBe(
    "error: failed to create secret Internal error occurred: failed to encrypt DEK, error: rpc error: code = Unavailable desc = the key service is unreachable\n",
  );
  // kube's getErrorCode: the failed transformation is counted under the plugin call's gRPC code.
  const metrics = await (await server.request("GET", "/metrics")).text();
  expect(metrics).toContain(
    'apiserver_storage_transformation_operations_total{transformation_type="to_storage",transformer_prefix="k8s:enc:kms:v2:test-v2:",status="Unavailable"} 1',
  );
  expect((await server.kubectl(["get", "secret", "s2"])).stderr).toContain("NotFound");
});

test("a plugin unhealthy at the first probe fails /healthz/kms-providers with kube's message (isKMSv2ProviderHealthy)", async () => {
  const plugin = await startKmsServer("v2", mkdtempSync(join(dir, "unhealthy-")));
  running.push(plugin);
  plugin.setHealthy(false);
  const path = await config("kms-v2-unhealthy.yaml", `{apiVersion: v2, name: sick, endpoint: "${plugin.endpoint}"}`);
  const answer = await runKubun(mkdtempSync(join(dir, "data-")), [`--encryption-provider-config=${path}`]);
  if (!("started" in answer)) throw new Error(`kubun did not start: ${answer.log}`);
  running.push({ stop: async () => void (await answer.started.stop()) });
  const response = await fetch(`${answer.started.url}/healthz/kms-providers`, { tls: { rejectUnauthorized: false } });
  expect(response.status).toBe(500);
  expect(await response.text()).toBe(
    "internal server error: kms-provider-0: kmsv2 Provider sick is not healthy, error: got unexpected healthz status: key service unreachable\n",
  );
});

test("a KMS plugin written as a TypeScript module (endpoint: module://<path>) encrypts Secrets in the same stored format", async () => {
  const sdk = resolve(import.meta.dir, "../plugins/sdk.ts");
  const module = join(dir, "xor-kms.ts");
  await writeFile(
    module,
    // Type-only imports vanish when the module is loaded, so it needs nothing beside itself at run time.
    `import type { KmsPluginFactory } from ${JSON.stringify(sdk)};
const flip = (bytes: Uint8Array) => bytes.map((b) => b ^ 0x5a);
const factory: KmsPluginFactory = ({ name }) => ({
  status: async () => ({ healthz: "ok", keyID: name + "-key" }),
  encrypt: async (plaintext) => ({ ciphertext: flip(plaintext), keyID: "xor-1" }),
  decrypt: async ({ ciphertext }) => flip(ciphertext),
});
export default factory;
`,
  );
  const path = await config("kms-module.yaml", `{apiVersion: v2, name: in-process, endpoint: "module://${module}"}`);
  const server = await start([`--encryption-provider-config=${path}`]);
  await kubectlOk(server, ["create", "secret", "generic", "s1", `--from-literal=password=${SECRET_VALUE}`]);
  const raw = await databaseBytes(server.dataDir);
  expect(raw).toContain("k8s:enc:kms:v2:in-process:");
  expect(raw).not.toContain(SECRET_VALUE);
  expect(await secretValue(server)).toBe(SECRET_VALUE);
  expect((await healthz(server)).body).toContain("[+]kms-providers ok\n");
});
