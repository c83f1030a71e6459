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

test("readEncryptionConfiguration() gives each named resource its providers in order; the first entry naming a resource wins", () => {
  const path = file(
    "ok.yaml",
    `${HEAD}resources:\n- resources: [secrets, widgets.example.com]\n  providers:\n  - aescbc: {keys: [{name: key1, secret: ${KEY32}}]}\n  - identity: {}\n- resources: [secrets, configmaps]\n  providers:\n  - identity: {}\n`,
  );
  const plan = readEncryptionConfiguration(path);
  expect([...plan.keys()]).toEqual(["secrets", "widgets.example.com", "configmaps"]);
  const stored = plan.get("secrets")!.toStorage(new Uint8Array(Buffer.from("v")), "/core/secrets/a/b");
  expect(Buffer.from(stored).toString("latin1")).toStartWith("k8s:enc:aescbc:v1:key1:");
  expect(plan.get("secrets")).toBe(plan.get("widgets.example.com")!);
});

test("ValidateEncryptionConfiguration: kube's messages, secrets never echoed", () => {
  const bad = file(
    "bad.yaml",
    `${HEAD}resources:\n- resources: [secrets]\n  providers:\n  - aescbc: {keys: [{name: k, secret: c2hvcnQ=}]}\n  - secretbox: {keys: [{name: '', secret: '!!'}]}\n  - {}\n  - {identity: {}, aesgcm: {keys: []}}\n- resources: []\n  providers: []\n`,
  );
  const message = (() => {
    try {
      readEncryptionConfiguration(bad);
      return "";
    } catch (error) {
      return (error as Error).message;
    }
  })();
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

test("a kms provider is refused at start-up rather than silently ignored", () => {
  const path = file(
    "kms.yaml",
    `${HEAD}resources:\n- resources: [secrets]\n  providers:\n  - kms: {name: vault, endpoint: unix:///tmp/kms.sock}\n`,
  );
  expect(() => readEncryptionConfiguration(path)).toThrow(`${path}: resources[0].providers[0]: the kms provider is not available in kubun`);
});
