import { expect, test } from "bun:test";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadPolicyFile, parsePolicy } from "./policy.ts";

const HEADER = "apiVersion: audit.k8s.io/v1\nkind: Policy\n";

test("LoadPolicyFromBytes: a policy with no rules is illegal", () => {
  expect(() => parsePolicy(`${HEADER}rules: []\n`)).toThrow("loaded illegal policy with 0 rules");
});

test("LoadPolicyFromBytes: an unknown group version is refused; v1beta1 is still read", () => {
  expect(() => parsePolicy("apiVersion: audit.k8s.io/v2\nkind: Policy\nrules: [{level: None}]\n")).toThrow(
    "unknown group version field audit.k8s.io/v2, Kind=Policy in policy",
  );
  expect(parsePolicy("apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: [{level: None}]\n").rules).toHaveLength(1);
});

test("ValidatePolicy: level required and supported, URLs, groups, resourceNames and stages in kube's words", () => {
  expect(() => parsePolicy(`${HEADER}rules:\n- verbs: [get]\n`)).toThrow("rules[0].level: Required value");
  expect(() => parsePolicy(`${HEADER}rules:\n- level: Everything\n`)).toThrow(
    'rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"',
  );
  expect(() => parsePolicy(`${HEADER}rules:\n- level: None\n  nonResourceURLs: ['healthz']\n`)).toThrow(
    `rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character`,
  );
  expect(() => parsePolicy(`${HEADER}rules:\n- level: None\n  nonResourceURLs: ['/a*/b']\n`)).toThrow(
    `rules[0].nonResourceURLs[0]: Invalid value: "/a*/b": non-resource URL wildcards '*' must be the final character of the rule`,
  );
  expect(() => parsePolicy(`${HEADER}rules:\n- level: None\n  nonResourceURLs: ['/a']\n  namespaces: [x]\n`)).toThrow(
    'rules[0].nonResourceURLs: Invalid value: ["/a"]: rules cannot apply to both regular resources and non-resource URLs',
  );
  expect(() => parsePolicy(`${HEADER}rules:\n- level: None\n  resources: [{group: "apps/v1"}]\n`)).toThrow(
    'rules[0].resources[0].group: Invalid value: "apps/v1": a lowercase RFC 1123 subdomain',
  );
  expect(() => parsePolicy(`${HEADER}rules:\n- level: None\n  resources: [{group: "", resourceNames: [x]}]\n`)).toThrow(
    'rules[0].resources[0].resourceNames: Invalid value: ["x"]: using resourceNames requires at least one resource',
  );
  expect(() => parsePolicy(`${HEADER}omitStages: [Later]\nrules:\n- level: None\n`)).toThrow(
    'omitStages[0]: Invalid value: "Later": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic',
  );
});

test("LoadPolicyFromFile: errors name the file; a missing file is a read failure", async () => {
  const dir = await mkdtemp(join(tmpdir(), "audit-policy-"));
  const path = join(dir, "policy.yaml");
  await writeFile(path, `${HEADER}rules: []\n`);
  await expect(loadPolicyFile(path)).rejects.toThrow(`loaded illegal policy with 0 rules: from file ${path}`);
  await expect(loadPolicyFile(join(dir, "missing.yaml"))).rejects.toThrow(`failed to read file path "${join(dir, "missing.yaml")}"`);
});
