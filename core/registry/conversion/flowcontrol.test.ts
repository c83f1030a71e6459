import { expect, test } from "bun:test";
import { convertToVersion } from "./mod.ts";

// Objects as storage holds them: complete in their Go zero values (go-zero-values.ts), so conversion adds none.
const CREATED = "2026-01-01T00:00:00Z";
const level = (apiVersion: string, limited: Record<string, unknown>) => ({
  apiVersion,
  kind: "PriorityLevelConfiguration",
  metadata: { name: "x", creationTimestamp: CREATED },
  spec: { type: "Limited", limited },
  status: {},
});
const RESOURCE = { group: "flowcontrol.apiserver.k8s.io", resource: "prioritylevelconfigurations" };
const V1BETA2 = { ...RESOURCE, version: "v1beta2" };
const V1BETA3 = { ...RESOURCE, version: "v1beta3" };

test("v1beta3 nominalConcurrencyShares is v1beta2 assuredConcurrencyShares, both ways (kube's v1beta3 conversion)", () => {
  const v1beta3 = level("flowcontrol.apiserver.k8s.io/v1beta3", { nominalConcurrencyShares: 7, limitResponse: { type: "Reject" } });
  const v1beta2 = convertToVersion(v1beta3, V1BETA3, V1BETA2);
  expect(v1beta2).toEqual(
    level("flowcontrol.apiserver.k8s.io/v1beta2", { assuredConcurrencyShares: 7, limitResponse: { type: "Reject" } }),
  );
  expect(convertToVersion(v1beta2, V1BETA2, V1BETA3)).toEqual(v1beta3);
});

test("an exempt level and FlowSchemas change only their apiVersion", () => {
  const exempt = {
    apiVersion: "flowcontrol.apiserver.k8s.io/v1beta2",
    kind: "PriorityLevelConfiguration",
    metadata: { name: "e", creationTimestamp: CREATED },
    spec: { type: "Exempt" },
    status: {},
  };
  expect(convertToVersion(exempt, V1BETA2, V1BETA3)).toEqual({
    ...exempt,
    apiVersion: "flowcontrol.apiserver.k8s.io/v1beta3",
  });
  const schema = {
    apiVersion: "flowcontrol.apiserver.k8s.io/v1beta3",
    kind: "FlowSchema",
    metadata: { name: "f", creationTimestamp: CREATED },
    spec: { matchingPrecedence: 5, priorityLevelConfiguration: { name: "p" } },
    status: {},
  };
  expect(convertToVersion(schema, { ...V1BETA3, resource: "flowschemas" }, { ...V1BETA2, resource: "flowschemas" }))
    .toEqual({ ...schema, apiVersion: "flowcontrol.apiserver.k8s.io/v1beta2" });
});
