import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { NETWORKING_DEFAULTERS } from "./networking.ts";

function defaultedPolicy(spec: Record<string, unknown>): Record<string, unknown> {
  const policy: KubeObject = { apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy", metadata: { name: "p" }, spec };
  NETWORKING_DEFAULTERS.kinds.NetworkPolicy(policy);
  return policy.spec as Record<string, unknown>;
}

test("a NetworkPolicy without policyTypes is Ingress, plus Egress when it has egress rules", () => {
  expect(defaultedPolicy({ podSelector: {} }).policyTypes).toEqual(["Ingress"]);
  expect(defaultedPolicy({ podSelector: {}, egress: [{}] }).policyTypes).toEqual(["Ingress", "Egress"]);
  expect(defaultedPolicy({ podSelector: {}, policyTypes: ["Egress"] }).policyTypes).toEqual(["Egress"]);
});

test("NetworkPolicy rule ports default to TCP", () => {
  const spec = defaultedPolicy({ ingress: [{ ports: [{ port: 80 }] }], egress: [{ ports: [{ port: 53, protocol: "UDP" }] }] });
  expect(spec.ingress).toEqual([{ ports: [{ port: 80, protocol: "TCP" }] }]);
  expect(spec.egress).toEqual([{ ports: [{ port: 53, protocol: "UDP" }] }]);
});

test("IngressClass parameters are cluster-scoped unless told otherwise", () => {
  const ingressClass: KubeObject = {
    apiVersion: "networking.k8s.io/v1",
    kind: "IngressClass",
    metadata: { name: "c" },
    spec: { controller: "example.com/ingress", parameters: { kind: "Params", name: "p" } },
  };
  NETWORKING_DEFAULTERS.kinds.IngressClass(ingressClass);
  expect(ingressClass.spec).toMatchObject({ parameters: { kind: "Params", name: "p", scope: "Cluster" } });
});
