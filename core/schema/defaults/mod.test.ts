import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { builtInCatalog } from "../../registry/catalog.ts";
import { applyDefaults, DEFAULTERS } from "./mod.ts";

const catalog = builtInCatalog();

function defaulted(group: string, version: string, kind: string, body: Record<string, unknown>): KubeObject {
  const type = catalog.byKind(group, version, kind);
  if (!type) throw new Error(`${group}/${version} ${kind} is not served`);
  const obj: KubeObject = { metadata: { name: "x" }, ...body };
  applyDefaults(type, obj);
  return obj;
}

test("every defaulted kind is a served built-in kind", () => {
  const unserved = DEFAULTERS.flatMap(({ group, version, kinds }) =>
    Object.keys(kinds).filter((kind) => !catalog.byKind(group, version, kind)).map((kind) => `${group}/${version} ${kind}`)
  );
  expect(unserved).toEqual([]);
});

test("applyDefaults() picks the defaulter by the resource type's group, version and kind", () => {
  expect(defaulted("", "v1", "Secret", {}).type).toBe("Opaque");
  expect(defaulted("apps", "v1", "Deployment", { spec: {} }).spec).toMatchObject({ replicas: 1, progressDeadlineSeconds: 600 });
});

test("applyDefaults() leaves kinds kube does not default as they are", () => {
  const body = { data: { a: "b" } };
  expect(defaulted("", "v1", "ConfigMap", structuredClone(body))).toEqual({ metadata: { name: "x" }, ...body });
  const lease = { spec: { holderIdentity: "h" } };
  expect(defaulted("coordination.k8s.io", "v1", "Lease", structuredClone(lease))).toEqual({ metadata: { name: "x" }, ...lease });
});

test("an APIService's service port defaults to 443 and a local APIService gets none", () => {
  const remote = defaulted("apiregistration.k8s.io", "v1", "APIService", {
    spec: { service: { namespace: "ns", name: "api" }, groupPriorityMinimum: 1 },
  });
  expect(remote.spec).toMatchObject({ service: { namespace: "ns", name: "api", port: 443 } });
  const explicit = defaulted("apiregistration.k8s.io", "v1", "APIService", {
    spec: { service: { namespace: "ns", name: "api", port: 8443 } },
  });
  expect(explicit.spec).toMatchObject({ service: { port: 8443 } });
  expect(defaulted("apiregistration.k8s.io", "v1", "APIService", { spec: { group: "g" } }).spec).toEqual({ group: "g" });
});

test("EndpointSlice ports get an empty name and TCP", () => {
  const slice = defaulted("discovery.k8s.io", "v1", "EndpointSlice", {
    addressType: "IPv4",
    ports: [{ port: 80 }, { name: "dns", port: 53, protocol: "UDP" }],
  });
  expect(slice.ports).toEqual([{ port: 80, name: "", protocol: "TCP" }, { name: "dns", port: 53, protocol: "UDP" }]);
});

test("a PriorityClass preempts lower priorities unless told otherwise", () => {
  expect(defaulted("scheduling.k8s.io", "v1", "PriorityClass", { value: 10 }).preemptionPolicy).toBe("PreemptLowerPriority");
  expect(defaulted("scheduling.k8s.io", "v1", "PriorityClass", { value: 10, preemptionPolicy: "Never" }).preemptionPolicy).toBe("Never");
});

test("a PodSecurityPolicy allows privilege escalation unless it says otherwise", () => {
  expect(defaulted("policy", "v1beta1", "PodSecurityPolicy", { spec: {} }).spec).toEqual({ allowPrivilegeEscalation: true });
  expect(defaulted("policy", "v1beta1", "PodSecurityPolicy", { spec: { allowPrivilegeEscalation: false } }).spec).toEqual({
    allowPrivilegeEscalation: false,
  });
});
