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
  expect(config.defaults).toEqual({ enforce: { level: "baseline", version: 24 }, audit: { level: "privileged", version: Infinity }, warn: { level: "restricted", version: Infinity } });
  expect([...config.exemptions.usernames, ...config.exemptions.runtimeClasses, ...config.exemptions.namespaces]).toEqual(["admin", "kata", "kube-system"]);
});

test("an unknown level or kind is refused", () => {
  expect(() => readPodSecurityConfiguration({ defaults: { enforce: "strict" } })).toThrow('defaults.enforce: Unsupported value: "strict"');
  expect(() => readPodSecurityConfiguration({ apiVersion: "v1", kind: "Other" })).toThrow("unsupported kind Other");
});
