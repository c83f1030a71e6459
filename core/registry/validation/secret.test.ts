import { expect, test } from "bun:test";
import { Buffer } from "node:buffer";
import { messages, object } from "./_testing.ts";
import { validateSecret, validateSecretUpdate } from "./secret.ts";

const b64 = (text: string) => Buffer.from(text).toString("base64");

test("validateSecret() checks keys, size and each built-in type's required keys", () => {
  const cases: [Record<string, unknown>, string[]][] = [
    [{ data: { "bad key": b64("x") } }, [
      `data[bad key]: Invalid value: "bad key": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    ]],
    [{ data: { big: b64("x".repeat(1024 * 1024 + 1)) } }, ["data: Too long: must have at most 1048576 bytes"]],
    [{ type: "kubernetes.io/tls", data: { "tls.crt": b64("c") } }, ["data[tls.key]: Required value"]],
    [{ type: "kubernetes.io/basic-auth", data: {} }, ["data[username]: Required value", "data[password]: Required value"]],
    [{ type: "kubernetes.io/ssh-auth" }, ["data[ssh-privatekey]: Required value"]],
    [{ type: "kubernetes.io/dockerconfigjson" }, ["data[.dockerconfigjson]: Required value"]],
    [{ type: "kubernetes.io/service-account-token" }, ["metadata.annotations[kubernetes.io/service-account.name]: Required value"]],
  ];
  for (const [fields, expected] of cases) expect(messages(validateSecret(object(fields)))).toEqual(expected);
});

test("validateSecretUpdate() keeps the type and, once immutable, the data", () => {
  const old = object({ type: "Opaque", immutable: true, data: { a: b64("1") } });
  expect(
    messages(validateSecretUpdate(object({ type: "kubernetes.io/tls", data: { "tls.crt": "", "tls.key": "" }, immutable: true }), old)),
  ).toEqual([
    'type: Invalid value: "kubernetes.io/tls": field is immutable',
    "data: Forbidden: field is immutable when `immutable` is set",
  ]);
  expect(messages(validateSecretUpdate(object({ type: "Opaque", data: { a: b64("1") } }), old))).toEqual([
    "immutable: Forbidden: field is immutable when `immutable` is set",
  ]);
  expect(validateSecretUpdate(object({ type: "Opaque", immutable: true, data: { a: b64("1") } }), old)).toEqual([]);
});
