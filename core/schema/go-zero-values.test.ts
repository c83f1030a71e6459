import { expect, test } from "bun:test";
import { withGoZeroValues } from "./go-zero-values.ts";

/** The object after withGoZeroValues, typed loosely for comparison with what kube's JSON has. */
const zeroed = (obj: Record<string, unknown> & { apiVersion: string; kind: string }): unknown => withGoZeroValues(obj);

test("core/v1 Event: struct fields ({} or a null Time) and strings without omitempty are written; omitempty scalars are not", () => {
  expect(zeroed({ apiVersion: "v1", kind: "Event", metadata: { name: "e" }, involvedObject: { name: "p" } })).toEqual({
    apiVersion: "v1",
    kind: "Event",
    metadata: { name: "e" },
    involvedObject: { name: "p" },
    source: {},
    firstTimestamp: null,
    lastTimestamp: null,
    eventTime: null,
    reportingComponent: "",
    reportingInstance: "",
  });
});

test("nested structs, list items and null structs get theirs; values present are kept; ObjectMeta is left to the server", () => {
  const deployment = {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "d" },
    spec: { template: { metadata: { labels: { a: "b" } }, spec: null } },
    status: { conditions: [{ type: "Available", status: "True", lastTransitionTime: "2026-01-01T00:00:00Z" }] },
  };
  expect(zeroed(deployment)).toEqual({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "d" },
    spec: { template: { metadata: { labels: { a: "b" } }, spec: {} }, strategy: {} },
    status: {
      conditions: [{ type: "Available", status: "True", lastTransitionTime: "2026-01-01T00:00:00Z", lastUpdateTime: null }],
    },
  });
});

test("a non-zero OpenAPI default (+default marker: a port's protocol) is defaulting's, not a zero value; an IntOrString writes 0", () => {
  expect(zeroed({ apiVersion: "v1", kind: "Service", metadata: {}, spec: { ports: [{ port: 80 }] } })).toEqual({
    apiVersion: "v1",
    kind: "Service",
    metadata: {},
    spec: { ports: [{ port: 80, targetPort: 0 }] },
    status: { loadBalancer: {} },
  });
});

test("an object of a kind that is not built in is left as it is", () => {
  const custom = { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w" }, spec: {} };
  expect(zeroed(structuredClone(custom))).toEqual(custom);
});
