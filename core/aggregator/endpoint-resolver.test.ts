import { expect, test } from "bun:test";
import type { KubeObject } from "../api/types.ts";
import { resolveEndpoint, type ServiceLookup } from "./endpoint-resolver.ts";

const REF = { namespace: "ns", name: "api", port: 443 };

function lookupOf(service: Record<string, unknown> | undefined, subsets: unknown[] | undefined): ServiceLookup {
  return {
    service: () =>
      service && ({ apiVersion: "v1", kind: "Service", metadata: { name: "api", namespace: "ns" }, spec: service } as KubeObject),
    endpoints: () =>
      subsets && ({ apiVersion: "v1", kind: "Endpoints", metadata: { name: "api", namespace: "ns" }, subsets } as KubeObject),
  };
}

test("resolveEndpoint() answers the ready address on the subset port named like the service port", () => {
  const lookup = lookupOf({ type: "ClusterIP", ports: [{ name: "https", port: 443, targetPort: 8443 }] }, [
    { addresses: [{ ip: "10.0.0.9" }], ports: [{ name: "metrics", port: 9090 }] },
    { addresses: [{ ip: "127.0.0.1" }], ports: [{ name: "https", port: 8443 }] },
  ]);
  expect(resolveEndpoint(lookup, REF)).toEqual({ host: "127.0.0.1", port: 8443 });
});

test("resolveEndpoint() refuses with kube's 503 messages when nothing can take the request", () => {
  const noPort = lookupOf({ ports: [{ port: 80 }] }, []);
  expect(() => resolveEndpoint(noPort, REF)).toThrow('no service port 443 found for service "api"');
  const noAddress = lookupOf({ ports: [{ port: 443 }] }, [{ addresses: [], ports: [{ port: 8443 }] }]);
  expect(() => resolveEndpoint(noAddress, REF)).toThrow('no endpoints available for service "api"');
  const external = lookupOf({ type: "ExternalName", ports: [{ port: 443 }] }, []);
  expect(() => resolveEndpoint(external, REF)).toThrow('unsupported service type "ExternalName"');
  expect(() => resolveEndpoint(lookupOf(undefined, undefined), REF)).toThrow('service "api" not found');
});
