/** One test per rule of kube's NodeRestriction (plugin/pkg/admission/noderestriction/admission.go), named after its function. */
import { expect, test } from "bun:test";
import { testAttributes } from "../../core/admission/testing.ts";
import type { AdmissionAttributes, BuiltInAdmissionContext } from "../../core/admission/types.ts";
import type { StatusError } from "../../core/api/errors.ts";
import type { KubeObject } from "../../core/api/types.ts";
import type { ReadOnlyClient } from "../../core/api/client.ts";
import nodeRestriction from "./mod.ts";

const NODE1 = { username: "system:node:node1", groups: ["system:nodes", "system:authenticated"] };
const NODE1_UID = "uid-node1";

const stored: Record<string, KubeObject> = {
  "nodes//node1": { metadata: { name: "node1", uid: NODE1_UID } },
  "pods/ns/mine": { metadata: { name: "mine", namespace: "ns", uid: "uid-mine" }, spec: { nodeName: "node1" } },
  "pods/ns/theirs": { metadata: { name: "theirs", namespace: "ns", uid: "uid-theirs" }, spec: { nodeName: "node2" } },
};
const client: ReadOnlyClient = {
  get: (ref) => Promise.resolve(stored[`${ref.resource}/${ref.namespace ?? ""}/${ref.name}`] ?? null),
  list: () => Promise.resolve([]),
  watch: () => Promise.reject(new Error("not used")),
};

/** The plugin's answer: "allowed", or the refusal's code and message. */
async function admit(overrides: Partial<AdmissionAttributes>): Promise<string> {
  const plugin = await nodeRestriction({ client } as BuiltInAdmissionContext);
  const attributes = testAttributes({ user: NODE1, ...overrides });
  if (plugin.handles && !plugin.handles(attributes)) return "not handled";
  try {
    await plugin.admit!(attributes);
    return "allowed";
  } catch (e) {
    return `${(e as StatusError).code} ${(e as StatusError).message}`;
  }
}

const ownerRef = { apiVersion: "v1", kind: "Node", name: "node1", uid: NODE1_UID, controller: true };
function mirrorPod(spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): KubeObject {
  return {
    metadata: {
      name: "static-web",
      namespace: "ns",
      annotations: { "kubernetes.io/config.mirror": "hash" },
      ownerReferences: [ownerRef],
      ...metadata,
    },
    spec: { nodeName: "node1", containers: [{ name: "c", image: "nginx" }], ...spec },
  };
}
const createPod = (object: KubeObject) => admit({ operation: "CREATE", object, name: String(object.metadata.name) });
const forbiddenPod = (message: string) => `403 pods "static-web" is forbidden: ${message}`;

test("Admit: users other than nodes are not handled; a node user without a name is refused (could not determine node)", async () => {
  expect(await admit({ user: { username: "alice", groups: [] }, object: mirrorPod() })).toBe("not handled");
  expect(await admit({ user: { username: "system:node:node1", groups: [] }, object: mirrorPod() })).toBe("not handled");
  expect(await admit({ user: { username: "system:node:", groups: ["system:nodes"] }, name: "p" })).toBe(
    '403 pods "p" is forbidden: could not determine node from user "system:node:"',
  );
});

test("admitPodCreate: a mirror pod bound to the node and owned by its Node is allowed", async () => {
  expect(await createPod(mirrorPod())).toBe("allowed");
});

test("admitPodCreate: only mirror pods, only bound to the node itself", async () => {
  expect(await createPod(mirrorPod({}, { annotations: {} }))).toBe(
    forbiddenPod('pod does not have "kubernetes.io/config.mirror" annotation, node "node1" can only create mirror pods'),
  );
  expect(await createPod(mirrorPod({ nodeName: "node2" }))).toBe(
    forbiddenPod('node "node1" can only create pods with spec.nodeName set to itself'),
  );
});

test("admitPodCreate: the owner reference must be one controller reference to the node's own Node with its uid", async () => {
  const withOwners = (ownerReferences: unknown[]) => createPod(mirrorPod({}, { ownerReferences }));
  expect(await withOwners([])).toBe(forbiddenPod('node "node1" can only create pods with an owner reference set to itself'));
  expect(await withOwners([ownerRef, ownerRef])).toBe(
    forbiddenPod('node "node1" can only create pods with a single owner reference set to itself'),
  );
  expect(await withOwners([{ ...ownerRef, name: "node2" }])).toBe(
    forbiddenPod('node "node1" can only create pods with an owner reference set to itself'),
  );
  expect(await withOwners([{ ...ownerRef, kind: "ReplicaSet" }])).toBe(
    forbiddenPod('node "node1" can only create pods with an owner reference set to itself'),
  );
  expect(await withOwners([{ ...ownerRef, controller: false }])).toBe(
    forbiddenPod('node "node1" can only create pods with a controller owner reference set to itself'),
  );
  expect(await withOwners([{ ...ownerRef, blockOwnerDeletion: true }])).toBe(
    forbiddenPod('node "node1" must not set blockOwnerDeletion on an owner reference'),
  );
  expect(await withOwners([{ ...ownerRef, uid: "stale" }])).toBe(forbiddenPod(`node node1 UID mismatch: expected stale got ${NODE1_UID}`));
});

test("admitPodCreate: the owner's uid is checked against the stored Node; a missing Node is the lister's NotFound", async () => {
  const node9 = { username: "system:node:node9", groups: ["system:nodes"] };
  const pod = mirrorPod({ nodeName: "node9" }, { ownerReferences: [{ ...ownerRef, name: "node9" }] });
  expect(await admit({ user: node9, operation: "CREATE", object: pod, name: "static-web" })).toBe('404 node "node9" not found');
});

test("admitPodCreate: a mirror pod may not reference a service account, secrets, config maps or claims", async () => {
  expect(await createPod(mirrorPod({ serviceAccountName: "default" }))).toBe(
    forbiddenPod('node "node1" can not create pods that reference a service account'),
  );
  const secretVolume = { volumes: [{ name: "s", secret: { secretName: "n2sec" } }] };
  expect(await createPod(mirrorPod(secretVolume))).toBe(forbiddenPod('node "node1" can not create pods that reference secrets'));
  expect(await createPod(mirrorPod({ imagePullSecrets: [{ name: "pull" }] }))).toBe(
    forbiddenPod('node "node1" can not create pods that reference secrets'),
  );
  const ephemeralEnv = { ephemeralContainers: [{ name: "e", image: "busybox", envFrom: [{ secretRef: { name: "s" } }] }] };
  expect(await createPod(mirrorPod(ephemeralEnv))).toBe(forbiddenPod('node "node1" can not create pods that reference secrets'));
  const configMapEnv = {
    containers: [{ name: "c", image: "nginx", env: [{ name: "A", valueFrom: { configMapKeyRef: { name: "cm", key: "k" } } }] }],
  };
  expect(await createPod(mirrorPod(configMapEnv))).toBe(forbiddenPod('node "node1" can not create pods that reference configmaps'));
  const claim = { volumes: [{ name: "data", persistentVolumeClaim: { claimName: "c" } }] };
  expect(await createPod(mirrorPod(claim))).toBe(forbiddenPod('node "node1" can not create pods that reference persistentvolumeclaims'));
});

test("admitPod: a node deletes only pods bound to it and cannot update pods", async () => {
  const mine = stored["pods/ns/mine"]!;
  const theirs = stored["pods/ns/theirs"]!;
  expect(await admit({ operation: "DELETE", object: null, oldObject: mine, name: "mine" })).toBe("allowed");
  expect(await admit({ operation: "DELETE", object: null, oldObject: theirs, name: "theirs" })).toBe(
    '403 pods "theirs" is forbidden: node "node1" can only delete pods with spec.nodeName set to itself',
  );
  expect(await admit({ operation: "UPDATE", object: mine, oldObject: mine, name: "mine" })).toBe(
    '403 pods "mine" is forbidden: unexpected operation "UPDATE", node "node1" can only create and delete mirror pods',
  );
});

test("admitPodStatus: status of pods bound to the node only, without label changes", async () => {
  const mine = stored["pods/ns/mine"]!;
  const status = (oldObject: KubeObject, object: KubeObject) =>
    admit({ operation: "UPDATE", subresource: "status", oldObject, object, name: String(object.metadata.name) });
  expect(await status(mine, { ...mine, status: { phase: "Running" } })).toBe("allowed");
  expect(await status(stored["pods/ns/theirs"]!, stored["pods/ns/theirs"]!)).toBe(
    '403 pods "theirs" is forbidden: node "node1" can only update pod status for pods with spec.nodeName set to itself',
  );
  expect(await status(mine, { ...mine, metadata: { ...mine.metadata, labels: { app: "x" } } })).toBe(
    '403 pods "mine" is forbidden: node "node1" cannot update labels through pod status',
  );
});

test("Admit: pod subresources other than status and eviction are refused (ephemeralcontainers, binding)", async () => {
  expect(await admit({ operation: "UPDATE", subresource: "ephemeralcontainers", name: "mine" })).toBe(
    `403 pods "mine" is forbidden: unexpected pod subresource "ephemeralcontainers", only 'status' and 'eviction' are allowed`,
  );
  expect(await admit({ operation: "CREATE", subresource: "binding", name: "mine" })).toBe(
    `403 pods "mine" is forbidden: unexpected pod subresource "binding", only 'status' and 'eviction' are allowed`,
  );
});

test("admitPodEviction: a node evicts only pods bound to it", async () => {
  const eviction = (name: string) =>
    admit({
      operation: "CREATE",
      subresource: "eviction",
      name,
      object: { apiVersion: "policy/v1", kind: "Eviction", metadata: { name } },
    });
  expect(await eviction("mine")).toBe("allowed");
  expect(await eviction("theirs")).toBe('403 pods "theirs" is forbidden: node node1 can only evict pods with spec.nodeName set to itself');
  expect(await eviction("gone")).toBe('404 pod "gone" not found');
});

const node = (name: string, spec: Record<string, unknown> = {}, labels?: Record<string, string>): KubeObject => ({
  metadata: { name, labels },
  spec,
});
const forbiddenNode = (message: string) => `403 nodes "node1" is forbidden: ${message}`;

test("admitNode: a node writes only its own Node object", async () => {
  expect(
    await admit({ resource: { group: "", version: "v1", resource: "nodes" }, operation: "CREATE", name: "node2", object: node("node2") }),
  ).toBe(
    '403 nodes "node2" is forbidden: node "node1" is not allowed to modify node "node2"',
  );
  expect(await admit({ resource: { group: "", version: "v1", resource: "nodes" }, operation: "DELETE", name: "node2", object: null })).toBe(
    '403 nodes "node2" is forbidden: node "node1" is not allowed to modify node "node2"',
  );
  expect(await admit({ resource: { group: "", version: "v1", resource: "nodes" }, operation: "DELETE", name: "node1", object: null })).toBe(
    "allowed",
  );
});

test("admitNode: on create, no configSource and only the kubelet's labels; taints are allowed", async () => {
  const create = (object: KubeObject) =>
    admit({ resource: { group: "", version: "v1", resource: "nodes" }, operation: "CREATE", name: "node1", object });
  expect(
    await create(
      node("node1", { taints: [{ key: "k", effect: "NoSchedule" }] }, {
        "kubernetes.io/hostname": "node1",
        "node.kubernetes.io/pool": "a",
        "example.com/x": "y",
      }),
    ),
  ).toBe("allowed");
  expect(await create(node("node1", { configSource: { configMap: { name: "c" } } }))).toBe(
    forbiddenNode('node "node1" is not allowed to create pods with a non-nil configSource'),
  );
  expect(
    await create(
      node("node1", {}, {
        "node-role.kubernetes.io/master": "",
        "node-restriction.kubernetes.io/pci": "true",
        "kubernetes.io/os": "linux",
      }),
    ),
  ).toBe(
    forbiddenNode(
      'node "node1" is not allowed to set the following labels: node-restriction.kubernetes.io/pci, node-role.kubernetes.io/master',
    ),
  );
});

test("admitNode: on update, no new configSource, no taint changes, no label changes outside the kubelet's set", async () => {
  const old = node("node1", { taints: [{ key: "k", effect: "NoSchedule" }] }, { "node-restriction.kubernetes.io/pci": "true" });
  const update = (object: KubeObject) =>
    admit({ resource: { group: "", version: "v1", resource: "nodes" }, operation: "UPDATE", name: "node1", object, oldObject: old });
  expect(await update(node("node1", old.spec as Record<string, unknown>, { ...old.metadata.labels, "topology.kubernetes.io/zone": "z" })))
    .toBe("allowed");
  expect(await update(node("node1", { ...(old.spec as object), configSource: { configMap: { name: "c" } } }, old.metadata.labels))).toBe(
    forbiddenNode('node "node1" is not allowed to update configSource to a new non-nil configSource'),
  );
  expect(await update(node("node1", { taints: [] }, old.metadata.labels))).toBe(
    forbiddenNode('node "node1" is not allowed to modify taints'),
  );
  expect(await update(node("node1", old.spec as Record<string, unknown>, {}))).toBe(
    forbiddenNode("is not allowed to modify labels: node-restriction.kubernetes.io/pci"),
  );
  expect(await update(node("node1", old.spec as Record<string, unknown>, { ...old.metadata.labels, "node-role.kubernetes.io/worker": "" })))
    .toBe(forbiddenNode("is not allowed to modify labels: node-role.kubernetes.io/worker"));
});

test("admitPVCStatus: only status.capacity and status.conditions may change, and only through status", async () => {
  const claims = { group: "", version: "v1", resource: "persistentvolumeclaims" };
  const old: KubeObject = {
    metadata: { name: "c", namespace: "ns", resourceVersion: "1" },
    spec: { volumeName: "pv" },
    status: { phase: "Bound" },
  };
  const status = (object: KubeObject) =>
    admit({ resource: claims, subresource: "status", operation: "UPDATE", name: "c", oldObject: old, object });
  expect(
    await status({
      ...old,
      metadata: { ...old.metadata, resourceVersion: "" },
      status: { phase: "Bound", capacity: { storage: "2Gi" }, conditions: [{ type: "Resizing", status: "True" }] },
    }),
  ).toBe("allowed");
  expect(await status({ ...old, metadata: { ...old.metadata, labels: { a: "b" } } })).toBe(
    '403 persistentvolumeclaims "c" is forbidden: node "node1" is not allowed to update fields other than status.capacity and status.conditions: metadata.labels',
  );
  expect(await admit({ resource: claims, operation: "CREATE", name: "c", object: old })).toBe(
    '403 persistentvolumeclaims "c" is forbidden: may only update PVC status',
  );
});

test("admitServiceAccount: a node's TokenRequest must be bound, by uid, to a pod on the node", async () => {
  const token = (boundObjectRef?: Record<string, unknown>) =>
    admit({
      resource: { group: "", version: "v1", resource: "serviceaccounts" },
      subresource: "token",
      operation: "CREATE",
      name: "default",
      object: { metadata: {}, spec: { boundObjectRef } },
    });
  const forbiddenToken = (message: string) => `403 serviceaccounts "default" is forbidden: ${message}`;
  expect(await token({ apiVersion: "v1", kind: "Pod", name: "mine", uid: "uid-mine" })).toBe("allowed");
  expect(await token()).toBe(forbiddenToken("node requested token not bound to a pod"));
  expect(await token({ apiVersion: "v1", kind: "Secret", name: "s", uid: "u" })).toBe(
    forbiddenToken("node requested token not bound to a pod"),
  );
  expect(await token({ apiVersion: "v1", kind: "Pod", name: "mine" })).toBe(
    forbiddenToken("node requested token with a pod binding without a uid"),
  );
  expect(await token({ apiVersion: "v1", kind: "Pod", name: "gone", uid: "u" })).toBe('404 pod "gone" not found');
  expect(await token({ apiVersion: "v1", kind: "Pod", name: "mine", uid: "old" })).toBe(
    forbiddenToken(
      "the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated",
    ),
  );
  expect(await token({ apiVersion: "v1", kind: "Pod", name: "theirs", uid: "uid-theirs" })).toBe(
    forbiddenToken("node requested token bound to a pod scheduled on a different node"),
  );
});

test("admitLease: only the node's own Lease in kube-node-lease", async () => {
  const leases = { group: "coordination.k8s.io", version: "v1", resource: "leases" };
  const lease = (namespace: string, name: string, operation: "CREATE" | "UPDATE") =>
    admit({ resource: leases, namespace, operation, name: operation === "CREATE" ? "" : name, object: { metadata: { name, namespace } } });
  expect(await lease("kube-node-lease", "node1", "CREATE")).toBe("allowed");
  expect(await lease("kube-node-lease", "node1", "UPDATE")).toBe("allowed");
  expect(await lease("default", "node1", "UPDATE")).toBe(
    '403 leases.coordination.k8s.io "node1" is forbidden: can only access leases in the "kube-node-lease" system namespace',
  );
  expect(await lease("kube-node-lease", "node2", "UPDATE")).toBe(
    '403 leases.coordination.k8s.io "node2" is forbidden: can only access node lease with the same name as the requesting node',
  );
  expect(await lease("kube-node-lease", "node2", "CREATE")).toBe(
    '403 leases.coordination.k8s.io "" is forbidden: can only access node lease with the same name as the requesting node',
  );
});

test("admitCSINode: only the CSINode named after the node", async () => {
  const csinodes = { group: "storage.k8s.io", version: "v1", resource: "csinodes" };
  expect(await admit({ resource: csinodes, namespace: "", operation: "CREATE", name: "", object: { metadata: { name: "node1" } } })).toBe(
    "allowed",
  );
  expect(await admit({ resource: csinodes, namespace: "", operation: "DELETE", name: "node2", object: null })).toBe(
    '403 csinodes.storage.k8s.io "node2" is forbidden: can only access CSINode with the same name as the requesting node',
  );
});

test("Admit: other resources are left alone", async () => {
  expect(await admit({ resource: { group: "", version: "v1", resource: "events" }, name: "e", object: { metadata: { name: "e" } } })).toBe(
    "allowed",
  );
});
