/**
 * NodeRestriction end to end (--authorization-mode=Node,RBAC --enable-admission-plugins=NodeRestriction): a
 * kubelet with a client certificate for CN=system:node:node1, O=system:nodes cannot widen what the Node
 * authorizer lets it read, nor steer workloads to itself (kube's plugin/pkg/admission/noderestriction).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";
import { createUser, type TestUser } from "./_users.ts";

let server: TestServer;
let kubelet: TestUser;
let node1Uid: string;

const apply = (object: object) => kubectlOk(server, ["apply", "-f", "-"], JSON.stringify(object));
const boundPod = (name: string, node: string) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace: "default" },
  spec: { nodeName: node, serviceAccountName: "default", containers: [{ name: "c", image: "busybox" }] },
});
const uidOf = async (...args: string[]) => (await kubectlOk(server, ["get", ...args, "-o", "jsonpath={.metadata.uid}"])).trim();

beforeAll(async () => {
  server = await startServer(["--authorization-mode=Node,RBAC", "--enable-admission-plugins=NodeRestriction"]);
  for (const node of ["node1", "node2"]) {
    await apply({
      apiVersion: "v1",
      kind: "Node",
      metadata: { name: node },
      spec: { taints: [{ key: "dedicated", value: "db", effect: "NoSchedule" }] },
    });
  }
  await kubectlOk(server, ["create", "secret", "generic", "n2sec", "--from-literal=k=v"]);
  await apply(boundPod("mine", "node1"));
  await apply(boundPod("theirs", "node2"));
  node1Uid = await uidOf("node", "node1");
  kubelet = await createUser(server, "system:node:node1", ["system:nodes"]);
});
afterAll(() => server?.stop());

const mirrorPod = (name: string, spec: object = {}) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: {
    name,
    namespace: "default",
    annotations: { "kubernetes.io/config.mirror": "hash" },
    ownerReferences: [{ apiVersion: "v1", kind: "Node", name: "node1", uid: node1Uid, controller: true }],
  },
  spec: { nodeName: "node1", containers: [{ name: "c", image: "nginx" }], ...spec },
});

test("admitPodCreate: a mirror pod mounting another node's Secret is refused, so the Node authorizer never relates the Secret to the node", async () => {
  const created = await kubelet.kubectl(["create", "-f", "-"], {
    stdin: JSON.stringify(mirrorPod("steal", { volumes: [{ name: "s", secret: { secretName: "n2sec" } }] })),
  });
  expect(created.code).not.toBe(0);
  expect(created.stderr).toContain('pods "steal" is forbidden: node "node1" can not create pods that reference secrets');
  const read = await kubelet.kubectl(["get", "secret", "n2sec"]);
  expect(read.stderr).toContain('secrets "n2sec" is forbidden');
  expect((await server.kubectl(["get", "pod", "steal"])).code).not.toBe(0);
});

test("admitPodCreate: a mirror pod owned by the node's Node and using no API objects is created; without the owner reference it is refused", async () => {
  expect(await kubectlOk(kubelet, ["create", "-f", "-"], JSON.stringify(mirrorPod("static-web")))).toBe("pod/static-web created\n");
  const unowned = { ...mirrorPod("unowned"), metadata: { ...mirrorPod("unowned").metadata, ownerReferences: undefined } };
  const refused = await kubelet.kubectl(["create", "-f", "-"], { stdin: JSON.stringify(unowned) });
  expect(refused.stderr).toContain('node "node1" can only create pods with an owner reference set to itself');
});

test("admitServiceAccount: a node's TokenRequest must be bound to a pod on that node", async () => {
  const unbound = await kubelet.kubectl(["create", "token", "default"]);
  expect(unbound.stderr).toContain('serviceaccounts "default" is forbidden: node requested token not bound to a pod');
  const theirsUid = await uidOf("pod", "theirs");
  const other = await kubelet.kubectl([
    "create",
    "token",
    "default",
    "--bound-object-kind=Pod",
    "--bound-object-name=theirs",
    `--bound-object-uid=${theirsUid}`,
  ]);
  expect(other.stderr).toContain("node requested token bound to a pod scheduled on a different node");
  const mineUid = await uidOf("pod", "mine");
  const mine = await kubelet.kubectl([
    "create",
    "token",
    "default",
    "--bound-object-kind=Pod",
    "--bound-object-name=mine",
    `--bound-object-uid=${mineUid}`,
  ]);
  expect(mine.stderr).toBe("");
  expect(mine.stdout.split(".")).toHaveLength(3);
});

test("admitNode: a node may not set node-restriction.kubernetes.io/ or node-role labels, nor change its taints, on its own Node", async () => {
  const restricted = await kubelet.kubectl(["label", "node", "node1", "node-restriction.kubernetes.io/pci=true"]);
  expect(restricted.stderr).toContain('nodes "node1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/pci');
  const role = await kubelet.kubectl(["label", "node", "node1", "node-role.kubernetes.io/control-plane="]);
  expect(role.stderr).toContain("is not allowed to modify labels: node-role.kubernetes.io/control-plane");
  expect(await kubectlOk(kubelet, ["label", "node", "node1", "topology.kubernetes.io/zone=z1"])).toBe("node/node1 labeled\n");
  const untaint = await kubelet.kubectl(["taint", "node", "node1", "dedicated-"]);
  expect(untaint.stderr).toContain('node "node1" is not allowed to modify taints');
  expect(await server.kubectl(["get", "node", "node1", "-o", "jsonpath={.spec.taints[0].key}"])).toMatchObject({ stdout: "dedicated" });
});

test("admitNode: a node may not register another Node, nor register itself with a node-role label", async () => {
  const other = await kubelet.kubectl(["create", "-f", "-"], {
    stdin: JSON.stringify({ apiVersion: "v1", kind: "Node", metadata: { name: "node3" } }),
  });
  expect(other.stderr).toContain('nodes "node3" is forbidden: node "node1" is not allowed to modify node "node3"');
  const node3 = await createUser(server, "system:node:node3", ["system:nodes"]);
  const labelled = {
    apiVersion: "v1",
    kind: "Node",
    metadata: { name: "node3", labels: { "node-role.kubernetes.io/control-plane": "", "kubernetes.io/os": "linux" } },
  };
  const refused = await node3.kubectl(["create", "-f", "-"], { stdin: JSON.stringify(labelled) });
  expect(refused.stderr).toContain('node "node3" is not allowed to set the following labels: node-role.kubernetes.io/control-plane');
  labelled.metadata.labels = { "kubernetes.io/os": "linux" } as typeof labelled.metadata.labels;
  expect(await kubectlOk(node3, ["create", "-f", "-"], JSON.stringify(labelled))).toBe("node/node3 created\n");
});

test("admitPodStatus: a node updates the status only of pods bound to it, and cannot relabel them through status", async () => {
  const theirs = JSON.parse(await kubectlOk(server, ["get", "pod", "theirs", "-o", "json"]));
  const refused = await kubelet.kubectl(["replace", "--raw", "/api/v1/namespaces/default/pods/theirs/status", "-f", "-"], {
    stdin: JSON.stringify(theirs),
  });
  expect(refused.stderr).toContain('node "node1" can only update pod status for pods with spec.nodeName set to itself');
  const mine = JSON.parse(await kubectlOk(server, ["get", "pod", "mine", "-o", "json"]));
  mine.metadata.labels = { stolen: "yes" };
  // kube refuses this with "cannot update labels through pod status"; kubun's status writes keep only status.
  await kubelet.kubectl(["replace", "--raw", "/api/v1/namespaces/default/pods/mine/status", "-f", "-"], { stdin: JSON.stringify(mine) });
  expect(await kubectlOk(server, ["get", "pod", "mine", "-o", "jsonpath={.metadata.labels}"])).toBe("");
});

test("admitLease: a node creates only its own Lease in kube-node-lease", async () => {
  const lease = (name: string) => ({
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: { name, namespace: "kube-node-lease" },
    spec: { holderIdentity: name },
  });
  const other = await kubelet.kubectl(["create", "-f", "-"], { stdin: JSON.stringify(lease("node2")) });
  expect(other.stderr).toContain("can only access node lease with the same name as the requesting node");
  expect(await kubectlOk(kubelet, ["create", "-f", "-"], JSON.stringify(lease("node1")))).toBe("lease.coordination.k8s.io/node1 created\n");
});

test("admitPod: a node deletes only pods bound to it", async () => {
  const refused = await kubelet.kubectl(["delete", "pod", "theirs"]);
  expect(refused.stderr).toContain('pods "theirs" is forbidden: node "node1" can only delete pods with spec.nodeName set to itself');
  expect(await kubectlOk(server, ["get", "pod", "theirs", "-o", "name"])).toBe("pod/theirs\n");
});

test("admitCSINode: a node creates only the CSINode named after itself", async () => {
  const csiNode = (name: string) => ({ apiVersion: "storage.k8s.io/v1", kind: "CSINode", metadata: { name }, spec: { drivers: [] } });
  const other = await kubelet.kubectl(["create", "-f", "-"], { stdin: JSON.stringify(csiNode("node2")) });
  expect(other.stderr).toContain("can only access CSINode with the same name as the requesting node");
  expect(await kubectlOk(kubelet, ["create", "-f", "-"], JSON.stringify(csiNode("node1")))).toBe("csinode.storage.k8s.io/node1 created\n");
});

test("admitPodEviction: a node evicts only pods bound to it", async () => {
  const evict = (name: string) => ({ apiVersion: "policy/v1", kind: "Eviction", metadata: { name, namespace: "default" } });
  const theirs = await kubelet.kubectl(["create", "--raw", "/api/v1/namespaces/default/pods/theirs/eviction", "-f", "-"], {
    stdin: JSON.stringify(evict("theirs")),
  });
  expect(theirs.stderr).toContain("node node1 can only evict pods with spec.nodeName set to itself");
  expect((await server.kubectl(["get", "pod", "theirs"])).code).toBe(0);
  await apply(boundPod("evictable", "node1"));
  const own = await kubelet.kubectl(["create", "--raw", "/api/v1/namespaces/default/pods/evictable/eviction", "-f", "-"], {
    stdin: JSON.stringify(evict("evictable")),
  });
  expect(own.code).toBe(0);
});
