import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { defaultService } from "./service.ts";

function defaulted(spec: Record<string, unknown>): Record<string, unknown> {
  const service: KubeObject = { apiVersion: "v1", kind: "Service", metadata: { name: "s" }, spec };
  defaultService(service);
  return service.spec as Record<string, unknown>;
}

test("a Service gets type ClusterIP, sessionAffinity None, internalTrafficPolicy Cluster and TCP ports aimed at themselves", () => {
  expect(defaulted({ ports: [{ port: 80 }] })).toEqual({
    ports: [{ port: 80, protocol: "TCP", targetPort: 80 }],
    sessionAffinity: "None",
    type: "ClusterIP",
    internalTrafficPolicy: "Cluster",
  });
});

test("a Service keeps explicit ports, protocols and policies", () => {
  const spec = defaulted({
    type: "NodePort",
    ports: [{ port: 53, protocol: "UDP", targetPort: "dns" }],
    externalTrafficPolicy: "Local",
    internalTrafficPolicy: "Local",
  });
  expect(spec).toEqual({
    type: "NodePort",
    ports: [{ port: 53, protocol: "UDP", targetPort: "dns" }],
    externalTrafficPolicy: "Local",
    internalTrafficPolicy: "Local",
    sessionAffinity: "None",
  });
});

test("a zero or empty targetPort means the service port", () => {
  expect(defaulted({ ports: [{ port: 80, targetPort: 0 }, { port: 81, targetPort: "" }] }).ports).toEqual([
    { port: 80, targetPort: 80, protocol: "TCP" },
    { port: 81, targetPort: 81, protocol: "TCP" },
  ]);
});

test("ClientIP affinity sticks for 10800 seconds unless told otherwise; None drops the affinity config", () => {
  expect(defaulted({ sessionAffinity: "ClientIP" }).sessionAffinityConfig).toEqual({ clientIP: { timeoutSeconds: 10800 } });
  expect(defaulted({ sessionAffinity: "ClientIP", sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } } }).sessionAffinityConfig)
    .toEqual({
      clientIP: { timeoutSeconds: 60 },
    });
  expect(defaulted({ sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } } })).not.toHaveProperty("sessionAffinityConfig");
});

test("NodePort and LoadBalancer services get externalTrafficPolicy Cluster; LoadBalancers allocate node ports", () => {
  expect(defaulted({ type: "NodePort" })).toMatchObject({ externalTrafficPolicy: "Cluster", internalTrafficPolicy: "Cluster" });
  expect(defaulted({ type: "LoadBalancer" })).toMatchObject({ externalTrafficPolicy: "Cluster", allocateLoadBalancerNodePorts: true });
  expect(defaulted({ type: "ClusterIP" })).not.toHaveProperty("externalTrafficPolicy");
});

test("an ExternalName service gets no traffic policies", () => {
  const spec = defaulted({ type: "ExternalName", externalName: "example.com" });
  expect(spec).not.toHaveProperty("internalTrafficPolicy");
  expect(spec).not.toHaveProperty("externalTrafficPolicy");
});
