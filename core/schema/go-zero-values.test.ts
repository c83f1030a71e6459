import { expect, test } from "bun:test";
import type { KubeObject } from "../api/types.ts";
import { withGoZeroValues, withGoZeroValuesOf } from "./go-zero-values.ts";
import { builtInSchemas } from "./lookup.ts";

function filled(group: string, version: string, kind: string, obj: Record<string, unknown>): Record<string, unknown> {
  return withGoZeroValuesOf(builtInSchemas, builtInSchemas.schemaForKind(group, version, kind)!, obj);
}

/** The object after withGoZeroValues (the kind its apiVersion and kind name), typed loosely for comparison. */
const zeroed = (obj: KubeObject): unknown => withGoZeroValues(obj);

test("non-pointer struct fields are written as {} and filled in turn (Deployment status, pod template metadata)", () => {
  const deployment = filled("apps", "v1", "Deployment", {
    metadata: { name: "d", creationTimestamp: "2026-01-01T00:00:00Z" },
    spec: { selector: { matchLabels: { a: "b" } }, template: { metadata: { labels: { a: "b" } }, spec: { containers: [{ name: "c" }] } } },
  });
  expect(deployment.status).toEqual({});
  expect(deployment.spec).toMatchObject({ strategy: {}, template: { metadata: { labels: { a: "b" }, creationTimestamp: null } } });
  expect(deployment.spec).toMatchObject({ template: { spec: { containers: [{ name: "c", resources: {} }] } } });
  expect(deployment.metadata).toMatchObject({ creationTimestamp: "2026-01-01T00:00:00Z" });
});

test("fields without omitempty get their scalar zero; pointer and omitempty fields stay absent", () => {
  const daemonSet = filled("apps", "v1", "DaemonSet", { metadata: { name: "x" }, status: { numberReady: 2 } });
  expect(daemonSet.status).toEqual({ numberReady: 2, currentNumberScheduled: 0, desiredNumberScheduled: 0, numberMisscheduled: 0 });
  const event = filled("", "v1", "Event", { metadata: { name: "e" }, involvedObject: { kind: "Pod" } });
  expect(event).toMatchObject({
    eventTime: null,
    firstTimestamp: null,
    lastTimestamp: null,
    reportingComponent: "",
    reportingInstance: "",
    source: {},
  });
  expect("series" in event || "action" in event || "related" in event).toBe(false);
});

test("a null struct field decodes to its zero struct, a null Time stays null; set values are kept", () => {
  const service = filled("", "v1", "Service", { metadata: { name: "s" }, status: null, spec: { ports: [{ port: 80, targetPort: 8080 }] } });
  expect(service.status).toEqual({ loadBalancer: {} });
  expect(service.spec).toEqual({ ports: [{ port: 80, targetPort: 8080 }] });
  const quantity = filled("", "v1", "Pod", {
    spec: { containers: [{ name: "c", env: [{ name: "E", valueFrom: { resourceFieldRef: { resource: "limits.cpu" } } }] }] },
  });
  // resource.Quantity's zero encodes as "0" (ResourceFieldSelector.divisor has no omitempty effect).
  expect(quantity.spec).toMatchObject({ containers: [{ env: [{ valueFrom: { resourceFieldRef: { divisor: "0" } } }] }] });
});

test("nested structs, list items and null structs get theirs at every depth; ObjectMeta's non-pointer creationTimestamp is written as null", () => {
  const deployment: KubeObject = {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "d" },
    spec: { template: { metadata: { labels: { a: "b" } }, spec: null } },
    status: { conditions: [{ type: "Available", status: "True", lastTransitionTime: "2026-01-01T00:00:00Z" }] },
  };
  expect(zeroed(deployment)).toEqual({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "d", creationTimestamp: null },
    spec: { template: { metadata: { labels: { a: "b" }, creationTimestamp: null }, spec: {} }, strategy: {} },
    status: {
      conditions: [{ type: "Available", status: "True", lastTransitionTime: "2026-01-01T00:00:00Z", lastUpdateTime: null }],
    },
  });
});

test("a non-zero OpenAPI default (+default marker: a port's protocol) is defaulting's, not a zero value; an IntOrString writes 0", () => {
  const service: KubeObject = {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "s", creationTimestamp: "2026-01-01T00:00:00Z" },
    spec: { ports: [{ port: 80 }] },
  };
  expect(zeroed(service)).toEqual({
    ...service,
    spec: { ports: [{ port: 80, targetPort: 0 }] },
    status: { loadBalancer: {} },
  });
});

test("the object given is left as it was: a filled answer is a copy, a complete object is answered as itself", () => {
  const template = { metadata: { labels: { a: "b" } }, spec: { containers: [{ name: "c" }] } };
  const replicaSet = { metadata: { name: "r", creationTimestamp: null }, spec: { selector: {}, template }, status: { replicas: 1 } };
  const before = structuredClone(replicaSet);
  const answer = withGoZeroValuesOf(builtInSchemas, builtInSchemas.schemaForKind("apps", "v1", "ReplicaSet")!, replicaSet);
  expect(replicaSet).toEqual(before);
  expect(answer.spec).toMatchObject({ template: { metadata: { creationTimestamp: null } } });
  expect(withGoZeroValuesOf(builtInSchemas, builtInSchemas.schemaForKind("apps", "v1", "ReplicaSet")!, answer)).toBe(answer);
});

test("an object of a kind that is not built in is left as it is", () => {
  const custom: KubeObject = { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w" }, spec: {} };
  expect(withGoZeroValues(custom)).toBe(custom);
});
