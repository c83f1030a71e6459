import { expect, test } from "bun:test";
import { describe, type NamespacePolicy, parseVersion, policyFromLabels } from "./policy.ts";

const DEFAULTS: NamespacePolicy = {
  enforce: { level: "privileged", version: Infinity },
  audit: { level: "baseline", version: 24 },
  warn: { level: "privileged", version: Infinity },
};

test("parseVersion accepts latest and v1.x only", () => {
  expect(parseVersion("latest")).toBe(Infinity);
  expect(parseVersion("v1.25")).toBe(25);
  expect(parseVersion("v1.025")).toBeUndefined();
  expect(parseVersion("1.25")).toBeUndefined();
});

test("describe prints kube's level:version form", () => {
  expect(describe({ level: "restricted", version: Infinity })).toBe("restricted:latest");
  expect(describe({ level: "baseline", version: 24 })).toBe("baseline:v1.24");
});

test("labels override the defaults and a level label without version means latest", () => {
  const policy = policyFromLabels({
    "pod-security.kubernetes.io/enforce": "baseline",
    "pod-security.kubernetes.io/audit": "restricted",
    "pod-security.kubernetes.io/warn-version": "v1.23",
  }, DEFAULTS);
  expect(policy).toEqual({
    enforce: { level: "baseline", version: Infinity },
    audit: { level: "restricted", version: Infinity },
    warn: { level: "privileged", version: 23 },
  });
});

test("without labels the configured defaults apply", () => {
  expect(policyFromLabels({}, DEFAULTS)).toEqual(DEFAULTS);
});

test("an invalid level fails closed to restricted and an invalid version reads as latest", () => {
  const policy = policyFromLabels(
    { "pod-security.kubernetes.io/enforce": "strict", "pod-security.kubernetes.io/enforce-version": "v2" },
    DEFAULTS,
  );
  expect(policy.enforce).toEqual({ level: "restricted", version: Infinity });
});
