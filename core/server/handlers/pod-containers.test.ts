import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { validateContainer } from "./pod-containers.ts";

function pod(spec: Record<string, unknown>): KubeObject {
  return { apiVersion: "v1", kind: "Pod", metadata: { name: "p", namespace: "default" }, spec };
}

test("validateContainer picks the only container when none is named", () => {
  expect(validateContainer("", pod({ containers: [{ name: "app" }] }))).toBe("app");
});

test("validateContainer answers kube's 400 for an unknown container", () => {
  expect(() => validateContainer("nope", pod({ containers: [{ name: "app" }] }))).toThrow("container nope is not valid for pod p");
});

test("validateContainer accepts init and ephemeral containers by name", () => {
  const p = pod({ initContainers: [{ name: "init" }], containers: [{ name: "app" }], ephemeralContainers: [{ name: "debugger" }] });
  expect(validateContainer("init", p)).toBe("init");
  expect(validateContainer("debugger", p)).toBe("debugger");
});

test("validateContainer lists every container (VisitContainers order) when a choice is needed", () => {
  const p = pod({ initContainers: [{ name: "init" }], containers: [{ name: "a" }, { name: "b" }] });
  expect(() => validateContainer("", p)).toThrow("a container name must be specified for pod p, choose one of: [init a b]");
});
