/** Attributes for plugin unit tests: a write by `alice` unless overridden. */
import type { KubeObject } from "../api/types.ts";
import type { AdmissionAttributes } from "./types.ts";

export function testAttributes(
  overrides: Partial<AdmissionAttributes> & { object?: KubeObject | null } = {},
): AdmissionAttributes & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    operation: "CREATE",
    object: {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p", namespace: "ns" },
      spec: { containers: [{ name: "c", image: "nginx" }] },
    },
    oldObject: null,
    kind: { group: "", version: "v1", kind: "Pod" },
    resource: { group: "", version: "v1", resource: "pods" },
    subresource: "",
    name: "p",
    namespace: "ns",
    user: { username: "alice", groups: ["system:authenticated"] },
    dryRun: false,
    options: { kind: "CreateOptions", apiVersion: "meta.k8s.io/v1" },
    reinvocation: { isReinvoke: false, values: new Map(), requestReinvocation: () => {} },
    addWarning: (text) => warnings.push(text),
    addAuditAnnotation: () => {},
    warnings,
    ...overrides,
  };
}
