/**
 * Node authorization end to end (--authorization-mode=Node,RBAC): kubectl with a client certificate for
 * CN=system:node:n1, O=system:nodes reads what the pods bound to n1 use, and nothing of node n2.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";
import { createUser, type TestUser } from "./_users.ts";

let server: TestServer;
let kubelet: TestUser;

const podOn = (name: string, node: string, secret: string, claim?: string) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace: "default" },
  spec: {
    nodeName: node,
    containers: [{ name: "c", image: "busybox", envFrom: [{ configMapRef: { name: `${name}-config` } }] }],
    volumes: [
      { name: "s", secret: { secretName: secret } },
      ...(claim ? [{ name: "data", persistentVolumeClaim: { claimName: claim } }] : []),
    ],
  },
});

beforeAll(async () => {
  server = await startServer(["--authorization-mode=Node,RBAC"]);
  for (const node of ["n1", "n2"]) {
    await kubectlOk(server, ["apply", "-f", "-"], JSON.stringify({ apiVersion: "v1", kind: "Node", metadata: { name: node } }));
  }
  for (const name of ["mine-secret", "their-secret", "unused-secret"]) {
    await kubectlOk(server, ["create", "secret", "generic", name, "--from-literal=k=v"]);
  }
  for (const name of ["mine-config", "theirs-config"]) await kubectlOk(server, ["create", "configmap", name]);
  await kubectlOk(server, ["apply", "-f", "-"], JSON.stringify(podOn("mine", "n1", "mine-secret", "mine-claim")));
  await kubectlOk(server, ["apply", "-f", "-"], JSON.stringify(podOn("theirs", "n2", "their-secret")));
  kubelet = await createUser(server, "system:node:n1", ["system:nodes"]);
});
afterAll(() => server?.stop());

async function canGet(args: string[]): Promise<boolean> {
  const result = await kubelet.kubectl(["get", ...args, "-o", "name"]);
  if (result.code !== 0) expect(result.stderr).toContain("forbidden");
  return result.code === 0;
}

test("a node can get its own Node, a pod bound to it, and that pod's secret and config map", async () => {
  expect(await canGet(["node", "n1"])).toBe(true);
  expect(await canGet(["pod", "mine"])).toBe(true);
  expect(await canGet(["secret", "mine-secret"])).toBe(true);
  expect(await canGet(["configmap", "mine-config"])).toBe(true);
});

test("a node cannot get another node, its pods or their secrets, nor unrelated secrets", async () => {
  expect(await canGet(["node", "n2"])).toBe(false);
  expect(await canGet(["pod", "theirs"])).toBe(false);
  expect(await canGet(["secret", "their-secret"])).toBe(false);
  expect(await canGet(["configmap", "theirs-config"])).toBe(false);
  const denied = await kubelet.kubectl(["get", "secret", "unused-secret"]);
  expect(denied.stderr).toContain(
    `secrets "unused-secret" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node 'n1' and this object`,
  );
  expect((await kubelet.kubectl(["get", "secrets"])).stderr).toContain('cannot list resource "secrets"');
});

test("a node can list pods by spec.nodeName and list nodes, as a kubelet does", async () => {
  const pods = await kubelet.kubectl(["get", "pods", "-A", "--field-selector=spec.nodeName=n1", "-o", "name"]);
  expect(pods.code).toBe(0);
  expect(pods.stdout.trim()).toBe("pod/mine");
  const nodes = await kubelet.kubectl(["get", "nodes", "-o", "name"]);
  expect(nodes.stdout.trim().split("\n")).toEqual(["node/n1", "node/n2"]);
});

test("the graph follows the store: a claim's bound volume becomes readable, and a pod moving away takes its secret along", async () => {
  expect(await canGet(["pv", "mine-volume"])).toBe(false);
  const volume = {
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name: "mine-volume" },
    spec: {
      capacity: { storage: "1Gi" },
      accessModes: ["ReadWriteOnce"],
      hostPath: { path: "/tmp/x" },
      claimRef: { namespace: "default", name: "mine-claim" },
    },
  };
  await kubectlOk(server, ["apply", "-f", "-"], JSON.stringify(volume));
  expect(await canGet(["pv", "mine-volume"])).toBe(true);
  const deleted = await server.kubectl(["delete", "pod", "mine", "--grace-period=0", "--force"]);
  expect(deleted.code).toBe(0);
  await kubectlOk(server, ["apply", "-f", "-"], JSON.stringify(podOn("mine", "n2", "mine-secret")));
  expect(await canGet(["secret", "mine-secret"])).toBe(false);
  expect(await canGet(["pv", "mine-volume"])).toBe(false);
});

test("a node may label its own Node, replace its status and create events, and is left to RBAC for the rest", async () => {
  expect((await kubelet.kubectl(["label", "node", "n1", "kubelet=yes"])).stdout).toBe("node/n1 labeled\n");
  const node = JSON.parse((await kubelet.kubectl(["get", "node", "n1", "-o", "json"])).stdout);
  node.status = { ...node.status, addresses: [{ type: "InternalIP", address: "10.0.0.1" }] };
  const replaced = await kubelet.kubectl(["replace", "--raw", "/api/v1/nodes/n1/status", "-f", "-"], { stdin: JSON.stringify(node) });
  expect(replaced.stderr).toBe("");
  const event = {
    apiVersion: "v1",
    kind: "Event",
    metadata: { name: "n1.started", namespace: "default" },
    involvedObject: { kind: "Node", name: "n1" },
    reason: "Started",
    message: "kubelet started",
  };
  expect((await kubelet.kubectl(["create", "-f", "-"], { stdin: JSON.stringify(event) })).stdout).toBe("event/n1.started created\n");
  expect((await kubelet.kubectl(["create", "namespace", "nope"])).stderr).toContain(
    'User "system:node:n1" cannot create resource "namespaces"',
  );
});

test("a node can get the VolumeAttachments to itself and no other (kube's graph edge volumeattachment -> node)", async () => {
  const attachment = (name: string, node: string) => ({
    apiVersion: "storage.k8s.io/v1",
    kind: "VolumeAttachment",
    metadata: { name },
    spec: { attacher: "csi.example.com", nodeName: node, source: { persistentVolumeName: "pv" } },
  });
  await kubectlOk(server, ["apply", "-f", "-"], JSON.stringify(attachment("to-n1", "n1")));
  await kubectlOk(server, ["apply", "-f", "-"], JSON.stringify(attachment("to-n2", "n2")));
  expect(await canGet(["volumeattachment", "to-n1"])).toBe(true);
  expect(await canGet(["volumeattachment", "to-n2"])).toBe(false);
});
