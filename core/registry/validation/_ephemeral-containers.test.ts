import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { validateEphemeralContainers } from "./_ephemeral-containers.ts";
import { validatePod, validatePodEphemeralContainersUpdate } from "./pod.ts";

const spec = (ephemeralContainers: unknown[]) => ({ containers: [{ name: "app", image: "app:1" }], ephemeralContainers });
const pod = (ephemeral: unknown[]): KubeObject => ({ apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec: spec(ephemeral) });

test("validateEphemeralContainers: empty resources are not set; probes and ports are forbidden", () => {
  expect(validateEphemeralContainers(spec([{ name: "d", image: "busybox", resources: {} }]), "spec.ephemeralContainers")).toEqual([]);
  const errors = validateEphemeralContainers(
    spec([{ name: "d", image: "busybox", livenessProbe: { exec: { command: ["true"] } } }]),
    "spec.ephemeralContainers",
  );
  expect(errors).toEqual([{
    type: "FieldValueForbidden",
    field: "spec.ephemeralContainers[0].livenessProbe",
    detail: "cannot be set for an Ephemeral Container",
  }]);
});

test("validateEphemeralContainers: targetContainerName must name a regular or init container", () => {
  const errors = validateEphemeralContainers(
    spec([{ name: "d", image: "busybox", targetContainerName: "ghost" }]),
    "spec.ephemeralContainers",
  );
  expect(errors).toEqual([{
    type: "FieldValueNotFound",
    field: "spec.ephemeralContainers[0].targetContainerName",
    value: "ghost",
    detail: "",
  }]);
});

test("ValidatePodEphemeralContainersUpdate allows additions only", () => {
  const one = pod([{ name: "d", image: "busybox" }]);
  expect(validatePodEphemeralContainersUpdate(pod([{ name: "d", image: "busybox" }, { name: "e", image: "busybox" }]), one)).toEqual([]);
  expect(validatePodEphemeralContainersUpdate(pod([]), one).map((e) => e.detail)).toEqual([
    'existing ephemeral containers "d" may not be removed\n',
  ]);
});

test("ValidatePodCreate forbids ephemeral containers", () => {
  expect(validatePod(pod([{ name: "d", image: "busybox" }]))).toEqual([{
    type: "FieldValueForbidden",
    field: "spec.ephemeralContainers",
    detail: "cannot be set on create",
  }]);
});
