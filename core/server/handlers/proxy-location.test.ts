import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import type { ReadOnlyClient } from "../../api/client.ts";
import { isGlobalUnicast, podLocation } from "./proxy-location.ts";
import { splitProxyPath } from "./proxy.ts";

function clientWith(objects: KubeObject[]): ReadOnlyClient {
  return {
    get: (ref) =>
      Promise.resolve(objects.find((o) => `${String(o.kind).toLowerCase()}s` === ref.resource && o.metadata.name === ref.name) ?? null),
    list: () => Promise.resolve([]),
    watch: () => Promise.reject(new Error("not used")),
  };
}

const pod = (ip: string, ports: number[] = []): KubeObject => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "p", namespace: "default" },
  spec: { containers: [{ name: "app", ports: ports.map((containerPort) => ({ containerPort })) }] },
  status: { podIPs: [{ ip }] },
});

test("pod.ResourceLocation defaults the port to the first declared container port, else the scheme's", async () => {
  expect(await podLocation(clientWith([pod("10.244.0.5", [8080])]), "default", "p")).toEqual({
    scheme: "http",
    endpoint: { host: "10.244.0.5", port: 8080 },
  });
  expect(await podLocation(clientWith([pod("10.244.0.5")]), "default", "https:p:")).toEqual({
    scheme: "https",
    endpoint: { host: "10.244.0.5", port: 443 },
  });
  expect(await podLocation(clientWith([pod("10.244.0.5", [8080])]), "default", "p:9000")).toEqual({
    scheme: "http",
    endpoint: { host: "10.244.0.5", port: 9000 },
  });
});

test("pod.ResourceLocation: a pod without an IP is 'address not allowed'", async () => {
  await expect(podLocation(clientWith([{ ...pod(""), status: {} }]), "default", "p")).rejects.toThrow("address not allowed");
});

test("isGlobalUnicast matches Go's net.IP.IsGlobalUnicast", () => {
  for (const ip of ["10.0.0.1", "192.0.2.1", "2001:db8::1"]) expect(isGlobalUnicast(ip)).toBe(true);
  for (
    const ip of ["127.0.0.1", "0.0.0.0", "169.254.1.1", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "ff02::1", "not-an-ip"]
  ) expect(isGlobalUnicast(ip)).toBe(false);
});

test("splitProxyPath keeps what follows .../proxy as sent, trailing slash included, and the prefix before it", () => {
  expect(splitProxyPath("/api/v1/namespaces/d/services/web:80/proxy/a/b/", "services", "web:80")).toEqual({
    prepend: "/api/v1/namespaces/d/services/web:80/proxy",
    path: "/a/b/",
  });
  expect(splitProxyPath("/api/v1/namespaces/d/services/web:80/proxy", "services", "web:80").path).toBe("/");
  expect(splitProxyPath("/api/v1/namespaces/d/pods/p/proxy/x%20y", "pods", "p").path).toBe("/x%20y");
});
