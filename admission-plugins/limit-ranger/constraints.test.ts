import { expect, test } from "bun:test";
import { limitRequestRatioConstraint, maxConstraint, maxRequestConstraint, minConstraint } from "./constraints.ts";

test("minConstraint and maxConstraint word kube's errors", () => {
  expect(minConstraint("Container", "cpu", "100m", {}, {})).toBe("minimum cpu usage per Container is 100m.  No request is specified");
  expect(minConstraint("Pod", "cpu", "100m", { cpu: "50m" }, {})).toBe("minimum cpu usage per Pod is 100m, but request is 50m");
  expect(maxConstraint("Container", "memory", "1Gi", {}, { memory: "2Gi" })).toBe(
    "maximum memory usage per Container is 1Gi, but limit is 2Gi",
  );
  expect(maxConstraint("Container", "memory", "1Gi", { memory: "512Mi" }, { memory: "1Gi" })).toBeUndefined();
});

test("limitRequestRatioConstraint refuses a ratio above the enforced one with six decimals", () => {
  expect(limitRequestRatioConstraint("Container", "cpu", "2", { cpu: "100m" }, { cpu: "500m" })).toBe(
    "cpu max limit to request ratio per Container is 2, but provided ratio is 5.000000",
  );
  expect(limitRequestRatioConstraint("Container", "cpu", "2", { cpu: "100m" }, { cpu: "200m" })).toBeUndefined();
  expect(limitRequestRatioConstraint("Pod", "cpu", "2", {}, { cpu: "200m" })).toBe(
    "cpu max limit to request ratio per Pod is 2, but no request is specified or request is 0",
  );
  expect(limitRequestRatioConstraint("Pod", "cpu", "2", { cpu: "1" }, {})).toBe(
    "cpu max limit to request ratio per Pod is 2, but no limit is specified or limit is 0",
  );
});

test("maxRequestConstraint judges a claim by its request only", () => {
  expect(maxRequestConstraint("PersistentVolumeClaim", "storage", "2Gi", { storage: "5Gi" })).toBe(
    "maximum storage usage per PersistentVolumeClaim is 2Gi, but request is 5Gi",
  );
  expect(maxRequestConstraint("PersistentVolumeClaim", "storage", "2Gi", {})).toBe(
    "maximum storage usage per PersistentVolumeClaim is 2Gi.  No request is specified",
  );
});
