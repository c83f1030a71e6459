/** kubectl's --validate modes against server-side field validation: strict fails naming the field, warn prints kube's warning. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createNamespace } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "validation";
let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
  dir = await mkdtemp(join(tmpdir(), "kubun-validation-"));
});
afterAll(async () => {
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Writes a Deployment manifest with extra spec lines and returns its path. */
async function manifest(name: string, specLines: string[] = []): Promise<string> {
  const yaml = [
    "apiVersion: apps/v1",
    "kind: Deployment",
    "metadata:",
    `  name: ${name}`,
    `  namespace: ${NS}`,
    "spec:",
    ...specLines.map((line) => `  ${line}`),
    "  selector:",
    `    matchLabels: {app: ${name}}`,
    "  template:",
    "    metadata:",
    `      labels: {app: ${name}}`,
    "    spec:",
    "      containers:",
    "      - {name: c, image: nginx}",
  ].join("\n");
  const path = join(dir, `${name}.yaml`);
  await writeFile(path, yaml + "\n");
  return path;
}

test("kubectl create --validate=strict fails on an unknown field and names it; nothing is created", async () => {
  const result = await server.kubectl(["create", "--validate=strict", "-f", await manifest("strict", ["x: 1"])]);
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain('strict decoding error: unknown field "spec.x"');
  const get = await server.kubectl(["get", "deployment", "strict", "-n", NS]);
  expect(get.stderr).toContain("NotFound");
});

test("kubectl create without --validate asks for strict validation, as kubectl 1.32 defaults to", async () => {
  const result = await server.kubectl(["create", "-f", await manifest("default-mode", ["x: 1"])]);
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain('unknown field "spec.x"');
});

test("kubectl create --validate=warn prints kube's warning and creates the object without the field", async () => {
  const result = await server.kubectl(["create", "--validate=warn", "-f", await manifest("warned", ["x: 1"])]);
  expect({ code: result.code, stdout: result.stdout.trim() }).toEqual({ code: 0, stdout: "deployment.apps/warned created" });
  expect(result.stderr).toContain('Warning: unknown field "spec.x"');
  const spec = await server.kubectl(["get", "deployment", "warned", "-n", NS, "-o", "jsonpath={.spec}"]);
  expect(JSON.parse(spec.stdout).x).toBeUndefined();
});

test("kubectl create --validate=false creates the object silently", async () => {
  const result = await server.kubectl(["create", "--validate=false", "-f", await manifest("ignored", ["x: 1"])]);
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
});

test("kubectl create reports a value of the wrong type with kube's decoder message", async () => {
  const result = await server.kubectl(["create", "-f", await manifest("typed", ['replicas: "two"'])]);
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain(
    'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
  );
});
