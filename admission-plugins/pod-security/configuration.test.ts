import { expect, test } from "bun:test";
import { readPodSecurityConfiguration } from "./configuration.ts";

test("without configuration every mode is privileged:latest and nothing is exempt", () => {
  const config = readPodSecurityConfiguration(undefined);
  expect(config.defaults.enforce).toEqual({ level: "privileged", version: Infinity });
  expect(config.exemptions.namespaces.size).toBe(0);
});

test("a PodSecurityConfiguration sets defaults and exemptions", () => {
  const config = readPodSecurityConfiguration({
    apiVersion: "pod-security.admission.config.k8s.io/v1",
    kind: "PodSecurityConfiguration",
    defaults: { enforce: "baseline", "enforce-version": "v1.24", warn: "restricted" },
    exemptions: { usernames: ["admin"], runtimeClasses: ["kata"], namespaces: ["kube-system"] },
  });
  expect(config.defaults).toEqual({
    enforce: { level: "baseline", version: 24 },
    audit: { level: "privileged", version: Infinity },
    warn: { level: "restricted", version: Infinity },
  });
  expect([...config.exemptions.usernames, ...config.exemptions.runtimeClasses, ...config.exemptions.namespaces]).toEqual([
    "admin",
    "kata",
    "kube-system",
  ]);
});

test("ValidatePodSecurityConfiguration: an unknown level or version is refused with kube's field errors", () => {
  expect(() => readPodSecurityConfiguration({ defaults: { enforce: "strict", "warn-version": "1.2" } })).toThrow(
    'PodSecurityConfiguration: [defaults.enforce: Invalid value: "strict": must be one of privileged, baseline, restricted, defaults.warn-version: Invalid value: "1.2": must be "latest" or "v1.x"]',
  );
  expect(() => readPodSecurityConfiguration({ apiVersion: "v1", kind: "Other" })).toThrow(
    'kind: Unsupported value: "Other": supported values: "PodSecurityConfiguration"',
  );
});

test("ValidatePodSecurityConfiguration: exemptions must be valid, distinct names", () => {
  expect(() => readPodSecurityConfiguration({ exemptions: { usernames: [""], namespaces: ["a", "a"], runtimeClasses: ["Bad_"] } })).toThrow(
    /^PodSecurityConfiguration: \[exemptions\.usernames\[0\]: Required value, exemptions\.namespaces\[1\]: Duplicate value: "a", exemptions\.runtimeClasses\[0\]: Invalid value: "Bad_": a lowercase RFC 1123 subdomain/,
  );
});
