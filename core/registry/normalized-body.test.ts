import { expect, test } from "bun:test";
import type { KubeObject } from "../api/types.ts";
import { normalizedBody } from "./normalized-body.ts";
import type { Strategy } from "./strategy.ts";

const type = { group: "apps", version: "v1", kind: "Deployment", resource: "deployments", namespaced: true };

test("normalizedBody copies the body with apiVersion and kind first, the URL's namespace, empty metadata members dropped", () => {
  const body = { spec: { replicas: 1 }, kind: "Deployment", metadata: { name: "d", labels: {} } } as unknown as KubeObject;
  const normalized = normalizedBody(type as never, {} as Strategy, body, "ns");
  expect(Object.keys(normalized).slice(0, 2)).toEqual(["apiVersion", "kind"]);
  expect(normalized.apiVersion).toBe("apps/v1");
  expect(normalized.metadata).toEqual({ name: "d", namespace: "ns" });
  expect(body.metadata).toEqual({ name: "d", labels: {} });
});

test("normalizedBody gives a body without metadata an object, then runs the kind's own normalize", () => {
  const strategy = { normalize: (obj: KubeObject) => void (obj.metadata.labels = { normalized: "yes" }) } as unknown as Strategy;
  const normalized = normalizedBody(type as never, strategy, { metadata: "x" } as unknown as KubeObject, "ns");
  expect(normalized.metadata).toEqual({ namespace: "ns", labels: { normalized: "yes" } });
});

test("normalizedBody of a body the write owns works on the body's own parts instead of copies", () => {
  const body = { spec: { replicas: 1 }, metadata: { name: "d", labels: {} } } as unknown as KubeObject;
  const normalized = normalizedBody(type as never, {} as Strategy, body, "ns", true);
  expect(normalized.metadata).toBe(body.metadata);
  expect(normalized.spec).toBe(body.spec);
  expect(body.metadata).toEqual({ name: "d", namespace: "ns" });
});
