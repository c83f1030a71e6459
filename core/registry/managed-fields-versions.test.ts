import { expect, test } from "bun:test";
import type { ResourceType } from "../api/resource-type.ts";
import { BUILT_IN_RESOURCE_TYPES } from "./catalog.gen.ts";
import { builtInVersionConverter } from "./managed-fields-versions.ts";

function typeOf(group: string, version: string, resource: string): ResourceType {
  return BUILT_IN_RESOURCE_TYPES.find((t) => t.group === group && t.version === version && t.resource === resource)!;
}

const levelV1beta3 = {
  apiVersion: "flowcontrol.apiserver.k8s.io/v1beta3",
  kind: "PriorityLevelConfiguration",
  metadata: { name: "x" },
  spec: { type: "Limited", limited: { nominalConcurrencyShares: 7, limitResponse: { type: "Reject" } } },
};

test("versionConverter: a flowcontrol v1beta3 level seen by a v1beta2 manager spells its shares assuredConcurrencyShares", async () => {
  const converter = builtInVersionConverter(typeOf("flowcontrol.apiserver.k8s.io", "v1beta3", "prioritylevelconfigurations"));
  const view = await converter.convert(levelV1beta3, "flowcontrol.apiserver.k8s.io/v1beta2");
  expect(view?.object.spec).toEqual({ type: "Limited", limited: { assuredConcurrencyShares: 7, limitResponse: { type: "Reject" } } });
  expect(view?.object.apiVersion).toBe("flowcontrol.apiserver.k8s.io/v1beta2");
});

test("versionConverter: a core/v1 Event seen by an events.k8s.io/v1 manager, with that version's type", async () => {
  const converter = builtInVersionConverter(typeOf("", "v1", "events"));
  const event = { apiVersion: "v1", kind: "Event", metadata: { name: "e" }, message: "m", involvedObject: { kind: "Pod", name: "p" } };
  const view = await converter.convert(event, "events.k8s.io/v1");
  expect(view?.object as unknown).toEqual({
    apiVersion: "events.k8s.io/v1",
    kind: "Event",
    metadata: { name: "e", creationTimestamp: null },
    regarding: event.involvedObject,
    note: "m",
    // Go's zero values, which kube's typed conversion writes too (mustEnforceDefault's fields).
    eventTime: null,
    deprecatedSource: {},
    deprecatedFirstTimestamp: null,
    deprecatedLastTimestamp: null,
  });
  expect(view?.type.kind).toBe("map");
});

test("IsMissingVersionError: a version with no schema for the kind (removed autoscaling/v2beta2, an unknown group) is missing", async () => {
  const converter = builtInVersionConverter(typeOf("autoscaling", "v2", "horizontalpodautoscalers"));
  const hpa = { apiVersion: "autoscaling/v2", kind: "HorizontalPodAutoscaler", metadata: { name: "h" } };
  expect(await converter.convert(hpa, "autoscaling/v2beta2")).toBeUndefined();
  expect(await converter.convert(hpa, "example.com/v1")).toBeUndefined();
});

test("schema.ParseGroupVersion: an apiVersion with two slashes is an error, not a missing version", () => {
  const converter = builtInVersionConverter(typeOf("apps", "v1", "deployments"));
  const deployment = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "d" } };
  expect(() => converter.convert(deployment, "a/b/c")).toThrow("unexpected GroupVersion string: a/b/c");
});
