import { expect, test } from "bun:test";
import { deprecationOf } from "./deprecated-apis.ts";

test("WarningMessage: deprecated and removed releases, then the replacement", () => {
  expect(deprecationOf("flowcontrol.apiserver.k8s.io", "v1beta2", "FlowSchema")).toEqual({
    warning:
      "flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema is deprecated in v1.26+, unavailable in v1.29+; use flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema",
    removedRelease: "1.29",
  });
  expect(deprecationOf("policy", "v1beta1", "PodSecurityPolicy")?.warning).toBe(
    "policy/v1beta1 PodSecurityPolicy is deprecated in v1.21+, unavailable in v1.25+",
  );
});

test("IsDeprecated: GA versions and unknown kinds are not deprecated", () => {
  expect(deprecationOf("", "v1", "Pod")).toBeUndefined();
  expect(deprecationOf("policy", "v1", "PodDisruptionBudget")).toBeUndefined();
});

test("WarningMessage of a GA type deprecated with no removal (core/v1 ComponentStatus): no 'unavailable in', no removed release", () => {
  expect(deprecationOf("", "v1", "ComponentStatus")).toEqual({ warning: "v1 ComponentStatus is deprecated in v1.19+", removedRelease: "" });
});
