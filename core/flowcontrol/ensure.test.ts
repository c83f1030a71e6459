import { expect, test } from "bun:test";
import { shouldUpdateSpec } from "./ensure.ts";

const object = (annotations: Record<string, string> | undefined, generation: number) => ({
  apiVersion: "flowcontrol.apiserver.k8s.io/v1beta2",
  kind: "FlowSchema",
  metadata: { name: "x", generation, ...(annotations ? { annotations } : {}) },
});

test("shouldUpdateSpec: the autoupdate-spec annotation decides; without a boolean there, only objects nobody edited (generation 1)", () => {
  expect(shouldUpdateSpec(object({ "apf.kubernetes.io/autoupdate-spec": "true" }, 5))).toBe(true);
  expect(shouldUpdateSpec(object({ "apf.kubernetes.io/autoupdate-spec": "false" }, 1))).toBe(false);
  expect(shouldUpdateSpec(object(undefined, 1))).toBe(true);
  expect(shouldUpdateSpec(object(undefined, 2))).toBe(false);
  expect(shouldUpdateSpec(object({ "apf.kubernetes.io/autoupdate-spec": "maybe" }, 2))).toBe(false);
  // Go's strconv.ParseBool spellings.
  expect(shouldUpdateSpec(object({ "apf.kubernetes.io/autoupdate-spec": "F" }, 1))).toBe(false);
  expect(shouldUpdateSpec(object({ "apf.kubernetes.io/autoupdate-spec": "1" }, 3))).toBe(true);
});
