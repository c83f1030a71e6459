import { expect, test } from "bun:test";
import { Buffer } from "node:buffer";
import { messages } from "./_testing.ts";
import { validateSecret } from "./secret.ts";

const token = (name: string, data: Record<string, string>) => ({
  metadata: { name, namespace: "kube-system" },
  type: "bootstrap.kubernetes.io/token",
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString("base64")])),
});

test("a well-formed bootstrap token secret is valid", () => {
  const data = {
    "token-id": "abcdef",
    "token-secret": "0123456789abcdef",
    expiration: "2030-01-02T15:04:05Z",
    "usage-bootstrap-authentication": "true",
    "auth-extra-groups": "system:bootstrappers:nodes",
  };
  expect(validateSecret(token("bootstrap-token-abcdef", data))).toEqual([]);
});

test("bootstrap token secrets get one error per broken key", () => {
  const data = {
    "token-id": "ABC",
    "token-secret": "short",
    expiration: "tomorrow",
    "usage-bootstrap-signing": "yes",
    "auth-extra-groups": "system:nodes",
  };
  expect(messages(validateSecret(token("bootstrap-token-abc", data)))).toEqual([
    `data[token-id]: Invalid value: "ABC": must be 6 characters from [a-z0-9] (regex used for validation is '[a-z0-9]{6}')`,
    `data[token-secret]: Invalid value: "<secret contents redacted>": must be 16 characters from [a-z0-9] (regex used for validation is '[a-z0-9]{16}')`,
    `data[expiration]: Invalid value: "tomorrow": must be an absolute UTC time in RFC 3339 format (e.g. '2017-01-02T15:04:05Z')`,
    'data[usage-bootstrap-signing]: Unsupported value: "yes": supported values: "true", "false"',
    `data[auth-extra-groups]: Invalid value: "system:nodes": bootstrap group "system:nodes" is invalid (must match \\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z)`,
  ]);
});

test("a bootstrap token secret must be named after its token id and carry both parts", () => {
  expect(messages(validateSecret(token("bootstrap-token-zzzzzz", { "token-id": "abcdef", "token-secret": "0123456789abcdef" })))).toEqual([
    'metadata.name: Invalid value: "bootstrap-token-zzzzzz": must be "bootstrap-token-abcdef" (bootstrap-token-<token-id>)',
  ]);
  expect(messages(validateSecret(token("bootstrap-token-abcdef", {})))).toEqual([
    "data[token-id]: Required value",
    "data[token-secret]: Required value",
  ]);
});
