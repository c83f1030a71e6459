import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import type { ReadOnlyClient } from "../../api/client.ts";
import { newDialBackendError, nodeConnectionInfo } from "./node-agent.ts";

function clientWith(node: KubeObject | null): ReadOnlyClient {
  return { get: () => Promise.resolve(node), list: () => Promise.resolve([]), watch: () => Promise.reject(new Error("not used")) };
}

const node = (status: Record<string, unknown>, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "Node",
  metadata: { name: "n1", labels },
  status,
});

test("GetConnectionInfo prefers the Hostname address and the node's kubelet port", async () => {
  const info = await nodeConnectionInfo(
    clientWith(node({
      addresses: [{ type: "InternalIP", address: "10.0.0.5" }, { type: "Hostname", address: "n1" }],
      daemonEndpoints: { kubeletEndpoint: { Port: 10255 } },
    }, { "kubun.io/simulated": "true" })),
    "n1",
  );
  expect(info).toMatchObject({ host: "n1", port: "10255", simulated: true });
});

test("GetConnectionInfo defaults the kubelet port to 10250; a missing node is 404", async () => {
  expect(await nodeConnectionInfo(clientWith(node({ addresses: [{ type: "InternalIP", address: "10.0.0.5" }] })), "n1")).toMatchObject({
    host: "10.0.0.5",
    port: "10250",
    simulated: false,
  });
  await expect(nodeConnectionInfo(clientWith(null), "ghost")).rejects.toThrow('nodes "ghost" not found');
});

test("GetPreferredNodeAddress: a node without addresses is kube's plain error", async () => {
  await expect(nodeConnectionInfo(clientWith(node({ addresses: [] })), "n1")).rejects.toThrow(
    "no preferred addresses found; known addresses: []",
  );
});

test("a failed dial is a 500 Status without a reason, worded as kube's UpgradeAwareHandler", async () => {
  const info = await nodeConnectionInfo(clientWith(node({ addresses: [{ type: "Hostname", address: "n1" }] })), "n1");
  const error = newDialBackendError(info);
  expect(error.code).toBe(500);
  expect(error.toStatus().reason).toBeUndefined();
  expect(error.message).toStartWith("error dialing backend: ");
});
