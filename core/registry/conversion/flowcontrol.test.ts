import { expect, test } from "bun:test";
import { convertToVersion } from "./mod.ts";

const level = (apiVersion: string, limited: Record<string, unknown>) => ({
  apiVersion,
  kind: "PriorityLevelConfiguration",
  metadata: { name: "x" },
  spec: { type: "Limited", limited },
});
const RESOURCE = { group: "flowcontrol.apiserver.k8s.io", resource: "prioritylevelconfigurations" };

test("v1beta3 nominalConcurrencyShares is v1beta2 assuredConcurrencyShares, both ways (kube's v1beta3 conversion)", () => {
  const v1beta3 = level("flowcontrol.apiserver.k8s.io/v1beta3", { nominalConcurrencyShares: 7, limitResponse: { type: "Reject" } });
  const v1beta2 = convertToVersion(v1beta3, RESOURCE, "v1beta3", "v1beta2");
  expect(v1beta2).toEqual(
    level("flowcontrol.apiserver.k8s.io/v1beta2", { assuredConcurrencyShares: 7, limitResponse: { type: "Reject" } }),
  );
  expect(convertToVersion(v1beta2, RESOURCE, "v1beta2", "v1beta3")).toEqual(v1beta3);
});

test("an exempt level and FlowSchemas change only their apiVersion", () => {
  const exempt = {
    apiVersion: "flowcontrol.apiserver.k8s.io/v1beta2",
    kind: "PriorityLevelConfiguration",
    metadata: { name: "e" },
    spec: { type: "Exempt" },
  };
  expect(convertToVersion(exempt, RESOURCE, "v1beta2", "v1beta3")).toEqual({
    ...exempt,
    apiVersion: "flowcontrol.apiserver.k8s.io/v1beta3",
  });
  const schema = {
    apiVersion: "flowcontrol.apiserver.k8s.io/v1beta3",
    kind: "FlowSchema",
    metadata: { name: "f" },
    spec: { matchingPrecedence: 5 },
  };
  expect(convertToVersion(schema, { group: RESOURCE.group, resource: "flowschemas" }, "v1beta3", "v1beta2"))
    .toEqual({ ...schema, apiVersion: "flowcontrol.apiserver.k8s.io/v1beta2" });
});
