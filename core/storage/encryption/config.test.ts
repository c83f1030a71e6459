import { expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readEncryptionConfiguration } from "./config.ts";

const dir = mkdtempSync(join(tmpdir(), "kubun-encryption-config-"));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const KEY32 = Buffer.alloc(32, 7).toString("base64");
const HEAD = "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\n";

test("readEncryptionConfiguration() gives each named resource its providers in order; the first entry naming a resource wins", async () => {
  const path = file(
    "ok.yaml",
    `${HEAD}resources:\n- resources: [secrets, widgets.example.com]\n  providers:\n  - aescbc: {keys: [{name: key1, secret: ${KEY32}}]}\n  - identity: {}\n- resources: [secrets, configmaps]\n  providers:\n  - identity: {}\n`,
  );
  const { transformers } = await readEncryptionConfiguration(path);
  expect([...transformers.keys()]).toEqual(["secrets", "widgets.example.com", "configmaps"]);
  const stored = await transformers.get("secrets")!.toStorage(new Uint8Array(Buffer.from("v")), "/core/secrets/a/b");
  expect(Buffer.from(stored).toString("latin1")).toStartWith("k8s:enc:aescbc:v1:key1:");
  expect(transformers.get("secrets")).toBe(transformers.get("widgets.example.com")!);
});

/** The error message readEncryptionConfiguration() fails with. */
async function failure(path: string, reload = false): Promise<string> {
  try {
    await readEncryptionConfiguration(path, { reload });
    return "";
  } catch (error) {
    return (error as Error).message;
  }
}

test("ValidateEncryptionConfiguration: kube's messages, secrets never echoed", async () => {
  const bad = file(
    "bad.yaml",
    `${HEAD}resources:\n- resources: [secrets]\n  providers:\n  - aescbc: {keys: [{name: k, secret: c2hvcnQ=}]}\n  - secretbox: {keys: [{name: '', secret: '!!'}]}\n  - {}\n  - {identity: {}, aesgcm: {keys: []}}\n- resources: []\n  providers: []\n`,
  );
  const message = await failure(bad);
  expect(message).toStartWith(`error while parsing file ${bad}: [`);
  for (
    const expected of [
      'resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 5, expected one of [16 24 32]',
      "resources[0].providers[1].secretbox.keys[0].name: Required value: name is a mandatory field for a key",
      'resources[0].providers[1].secretbox.keys[0].secret: Invalid value: "REDACTED": secrets must be base64 encoded',
      "resources[0].providers[2]: Invalid value: provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity",
      "resources[0].providers[3].aesgcm.keys: Required value: at least one keys is required",
      "resources[1].resources: Required value: at least one resources is required",
      "resources[1].providers: Required value: at least one providers is required",
    ]
  ) expect(message).toContain(expected);
  expect(message).not.toContain("c2hvcnQ=");
});

test("validateKMSConfiguration: kube's messages for the kms fields", async () => {
  const path = file(
    "kms-bad.yaml",
    `${HEAD}resources:\n- resources: [secrets]\n  providers:\n  - kms: {endpoint: "tcp://x", cachesize: 0, timeout: "-1s", apiVersion: v3}\n  - kms: {name: "a:b", endpoint: "unix:///tmp/kms.sock", apiVersion: v2}\n  - kms: {name: c, endpoint: ""}\n`,
  );
  const message = await failure(path);
  for (
    const expected of [
      "resources[0].providers[0].kms.name: Required value: name is a mandatory field for a provider",
      'resources[0].providers[0].kms.endpoint: Invalid value: "tcp://x": unsupported scheme "tcp" for KMS provider, only unix is supported',
      "resources[0].providers[0].kms.cachesize: Invalid value: 0: cachesize should be a positive value, or negative to disable",
      'resources[0].providers[0].kms.timeout: Invalid value: "-1s": timeout should be a positive value',
      'resources[0].providers[0].kms.apiVersion: Invalid value: "v3": unsupported apiVersion apiVersion for KMS provider, only v1 and v2 are supported',
      'resources[0].providers[2].kms.endpoint: Invalid value: "": endpoint is a mandatory field for a kms',
      `resources[0].providers[1].kms.name: Invalid value: "a:b": invalid KMS provider name a:b, must not contain ':'`,
    ]
  ) expect(message).toContain(expected);
});

test("validateKMSConfigName: v2 names are unique always, v1 names only when the file is reloaded", async () => {
  const kms = (version: string) => `  - kms: {name: vault, endpoint: "unix:///tmp/none.sock", apiVersion: ${version}}\n`;
  const v1Twice = file("kms-v1-twice.yaml", `${HEAD}resources:\n- resources: [secrets]\n  providers:\n${kms("v1")}${kms("v1")}`);
  const duplicate = 'resources[0].providers[1].kms.name: Invalid value: "vault": duplicate KMS provider name vault, names must be unique';
  expect(await failure(v1Twice)).toBe("");
  expect(await failure(v1Twice, true)).toContain(duplicate);
  const v2Twice = file("kms-v2-twice.yaml", `${HEAD}resources:\n- resources: [secrets]\n  providers:\n${kms("v1")}${kms("v2")}`);
  expect(await failure(v2Twice)).toContain(duplicate);
});
