import { expect, test } from "bun:test";
import type { KubeObject } from "../../core/api/types.ts";
import { claimViolations, podViolations } from "./validate.ts";

const resources = (cpu: string) => ({ requests: { cpu }, limits: { cpu } });
const pod: KubeObject = {
  metadata: { name: "p" },
  spec: {
    initContainers: [{ name: "init", resources: resources("900m") }],
    containers: [{ name: "a", resources: resources("300m") }, { name: "b", resources: resources("400m") }],
  },
};

test("Pod-type limits apply to the summed requests, raised to the largest init container", () => {
  expect(podViolations(pod, { type: "Pod", max: { cpu: "800m" } })).toEqual(["maximum cpu usage per Pod is 800m, but limit is 900m"]);
  expect(podViolations(pod, { type: "Pod", max: { cpu: "1" } })).toEqual([]);
});

test("Container-type limits apply to each container", () => {
  expect(podViolations(pod, { type: "Container", max: { cpu: "350m" } })).toEqual([
    "maximum cpu usage per Container is 350m, but limit is 900m",
    "maximum cpu usage per Container is 350m, but limit is 400m",
  ]);
});

test("PersistentVolumeClaim-type items bound the claim's storage request", () => {
  const claim: KubeObject = { metadata: { name: "c" }, spec: { resources: { requests: { storage: "500Mi" } } } };
  expect(claimViolations(claim, { type: "PersistentVolumeClaim", min: { storage: "1Gi" }, max: { storage: "5Gi" } })).toEqual([
    "minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi",
  ]);
  expect(claimViolations(claim, { type: "Container", min: { storage: "1Gi" } })).toEqual([]);
});
