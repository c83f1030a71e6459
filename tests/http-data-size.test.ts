/**
 * ConfigMap and Secret data over 1 MiB (kube's ValidateConfigMap / ValidateSecret total size against
 * MaxSecretSize): 422 `Too long: must have at most 1048576 bytes` on create, update, patch and apply, and
 * nothing stored.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";

let server: TestServer;
const LIMIT = 1048576;
const overLimit = "a".repeat(LIMIT + 1);

beforeAll(async () => {
  server = await startServer();
  await kubectlOk(server, ["create", "configmap", "small", "--from-literal=k=v"]);
  await kubectlOk(server, ["create", "secret", "generic", "small", "--from-literal=k=v"]);
});
afterAll(() => server?.stop());

async function send(method: string, path: string, body: object, contentType = "application/json") {
  const response = await server.request(method, path, { body: JSON.stringify(body), headers: { "Content-Type": contentType } });
  return { status: response.status, message: (await response.json()).message as string };
}

test("ValidateConfigMap: data and binaryData over 1 MiB are 422 on the whole object ([]) for create, update, patch and apply", async () => {
  const tooBig = { status: 422, message: `ConfigMap "small" is invalid: []: Too long: must have at most ${LIMIT} bytes` };
  const base = "/api/v1/namespaces/default/configmaps";
  expect(await send("POST", base, { metadata: { name: "big" }, data: { a: overLimit } })).toEqual({
    ...tooBig,
    message: tooBig.message.replace('"small"', '"big"'),
  });
  expect(await send("PUT", `${base}/small`, { metadata: { name: "small" }, data: { k: overLimit } })).toEqual(tooBig);
  const half = "a".repeat(LIMIT / 2);
  expect(
    await send(
      "PATCH",
      `${base}/small`,
      { data: { a: half }, binaryData: { b: Buffer.from(`${half}!`).toString("base64") } },
      "application/merge-patch+json",
    ),
  ).toEqual(tooBig);
  const applied = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "small" }, data: { k: overLimit } };
  expect(await send("PATCH", `${base}/small?fieldManager=test&force=true`, applied, "application/apply-patch+yaml")).toEqual(tooBig);
  expect(await kubectlOk(server, ["get", "configmap", "small", "-o", "jsonpath={.data}"])).toBe('{"k":"v"}');
  expect((await server.kubectl(["get", "configmap", "big"])).code).not.toBe(0);
});

test("ValidateSecret: decoded data over 1 MiB is 422 on data for create and patch, stringData included", async () => {
  const base = "/api/v1/namespaces/default/secrets";
  const tooBig = (name: string) => ({
    status: 422,
    message: `Secret "${name}" is invalid: data: Too long: must have at most ${LIMIT} bytes`,
  });
  expect(await send("POST", base, { metadata: { name: "big" }, data: { a: Buffer.from(overLimit).toString("base64") } })).toEqual(
    tooBig("big"),
  );
  expect(await send("PATCH", `${base}/small`, { stringData: { k: overLimit } }, "application/merge-patch+json")).toEqual(tooBig("small"));
  expect(await kubectlOk(server, ["get", "secret", "small", "-o", "jsonpath={.data.k}"])).toBe(Buffer.from("v").toString("base64"));
});
