import { expect, test } from "bun:test";
import type { KubeObject } from "../api/types.ts";
import { prepareServiceUpdate } from "./service-cluster-ips.ts";

const service = (spec: Record<string, unknown>): KubeObject => ({ metadata: { name: "s" }, spec });
const prepared = (next: Record<string, unknown>, old: Record<string, unknown>) => {
  const obj = service(next);
  prepareServiceUpdate(obj, service(old));
  return obj.spec;
};

test("a clusterIP changed with clusterIPs left as stored moves clusterIPs along (kube's normalizeClusterIPs)", () => {
  expect(prepared({ clusterIP: "10.0.0.12", clusterIPs: ["None"] }, { clusterIP: "None", clusterIPs: ["None"] }))
    .toEqual({ clusterIP: "10.0.0.12", clusterIPs: ["10.0.0.12"] });
});

test("cluster IPs the update leaves out are kept from the stored Service (kube's patchAllocatedValues)", () => {
  expect(prepared({ ports: [] }, { clusterIP: "10.0.0.5", clusterIPs: ["10.0.0.5"] }))
    .toEqual({ ports: [], clusterIP: "10.0.0.5", clusterIPs: ["10.0.0.5"] });
  expect(prepared({ clusterIP: "10.0.0.5" }, { clusterIP: "10.0.0.5", clusterIPs: ["10.0.0.5"] }))
    .toEqual({ clusterIP: "10.0.0.5", clusterIPs: ["10.0.0.5"] });
});

test("a change to or from ExternalName keeps nothing of the old cluster IPs", () => {
  expect(prepared({ type: "ExternalName", externalName: "example.com" }, { clusterIP: "10.0.0.5", clusterIPs: ["10.0.0.5"] }))
    .toEqual({ type: "ExternalName", externalName: "example.com" });
});
