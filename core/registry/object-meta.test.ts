import { afterEach, expect, setSystemTime, test } from "bun:test";
import type { KubeObject } from "../api/types.ts";
import { bumpsGeneration, nowTimestamp } from "./object-meta.ts";

afterEach(() => setSystemTime());

test("nowTimestamp is a metav1.Time: RFC 3339 in UTC to the whole second, new each second", () => {
  setSystemTime(new Date("2026-11-26T12:00:00.999Z"));
  expect(nowTimestamp()).toBe("2026-11-26T12:00:00Z");
  setSystemTime(new Date("2026-11-26T12:00:01.001Z"));
  expect(nowTimestamp()).toBe("2026-11-26T12:00:01Z");
  setSystemTime(new Date("2026-11-26T11:59:59.500Z"));
  expect(nowTimestamp()).toBe("2026-11-26T11:59:59Z");
});

test("an update bumps the generation for a spec change, and for an annotation change where the kind counts them (deploymentStrategy)", () => {
  const current: KubeObject = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "d" }, spec: { replicas: 1 } };
  const annotated: KubeObject = { ...current, metadata: { name: "d", annotations: { note: "x" } } };
  expect(bumpsGeneration(annotated, current, true)).toBe(true);
  expect(bumpsGeneration(annotated, current, false)).toBe(false);
  expect(bumpsGeneration({ ...current, metadata: { name: "d", annotations: {} } }, current, true)).toBe(false);
  expect(bumpsGeneration({ ...current, spec: { replicas: 2 } }, current, false)).toBe(true);
});
