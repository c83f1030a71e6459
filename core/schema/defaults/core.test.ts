import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { CORE_DEFAULTERS } from "./core.ts";

function defaulted(kind: string, body: Omit<KubeObject, "metadata"> & { metadata?: KubeObject["metadata"] }): KubeObject {
  const obj = { apiVersion: "v1", kind, metadata: { name: "x" }, ...body } as KubeObject;
  CORE_DEFAULTERS.kinds[kind](obj);
  return obj;
}

test("a Pod gets pod spec defaults plus enableServiceLinks", () => {
  const pod = defaulted("Pod", { spec: { containers: [{ name: "app", image: "nginx:1.25" }] } });
  expect(pod.spec).toMatchObject({
    enableServiceLinks: true,
    restartPolicy: "Always",
    dnsPolicy: "ClusterFirst",
    terminationGracePeriodSeconds: 30,
    containers: [{ imagePullPolicy: "IfNotPresent" }],
  });
  expect(defaulted("Pod", { spec: { enableServiceLinks: false, containers: [] } }).spec).toMatchObject({ enableServiceLinks: false });
});

test("a Pod container's limits stand in for the requests it leaves out", () => {
  const pod = defaulted("Pod", {
    spec: {
      containers: [{ name: "a", image: "x", resources: { limits: { cpu: "1", memory: "1Gi" }, requests: { cpu: "500m" } } }],
      initContainers: [{ name: "i", image: "x", resources: { limits: { cpu: "2" } } }],
    },
  });
  const spec = pod.spec as { containers: { resources: unknown }[]; initContainers: { resources: unknown }[] };
  expect(spec.containers[0].resources).toEqual({ limits: { cpu: "1", memory: "1Gi" }, requests: { cpu: "500m", memory: "1Gi" } });
  expect(spec.initContainers[0].resources).toEqual({ limits: { cpu: "2" }, requests: { cpu: "2" } });
});

test("a PodTemplate gets pod spec defaults but not the Pod-only enableServiceLinks", () => {
  const template = defaulted("PodTemplate", { template: { spec: { containers: [{ name: "a", image: "x" }] } } });
  expect(template.template).toMatchObject({ spec: { restartPolicy: "Always", containers: [{ imagePullPolicy: "Always" }] } });
  expect((template.template as { spec: object }).spec).not.toHaveProperty("enableServiceLinks");
});

test("a ReplicationController takes replicas 1 and its selector and labels from the template", () => {
  const rc = defaulted("ReplicationController", { spec: { template: { metadata: { labels: { app: "web" } }, spec: { containers: [] } } } });
  expect(rc.metadata.labels).toEqual({ app: "web" });
  expect(rc.spec).toMatchObject({ replicas: 1, selector: { app: "web" }, template: { spec: { dnsPolicy: "ClusterFirst" } } });
});

test("a ReplicationController keeps its explicit replicas, selector and labels", () => {
  const rc = defaulted("ReplicationController", {
    metadata: { name: "x", labels: { tier: "a" } },
    spec: { replicas: 0, selector: { app: "other" }, template: { metadata: { labels: { app: "web" } } } },
  });
  expect(rc.metadata.labels).toEqual({ tier: "a" });
  expect(rc.spec).toMatchObject({ replicas: 0, selector: { app: "other" } });
});

test("a Secret is Opaque unless typed", () => {
  expect(defaulted("Secret", {}).type).toBe("Opaque");
  expect(defaulted("Secret", { type: "kubernetes.io/tls" }).type).toBe("kubernetes.io/tls");
});

test("a PersistentVolume gets reclaim policy Retain, volumeMode Filesystem and a Pending phase", () => {
  const pv = defaulted("PersistentVolume", { spec: { hostPath: { path: "/data" } } });
  expect(pv.spec).toEqual({ hostPath: { path: "/data", type: "" }, persistentVolumeReclaimPolicy: "Retain", volumeMode: "Filesystem" });
  expect(pv.status).toEqual({ phase: "Pending" });
  const kept = defaulted("PersistentVolume", { spec: { persistentVolumeReclaimPolicy: "Delete", volumeMode: "Block" } });
  expect(kept.spec).toEqual({ persistentVolumeReclaimPolicy: "Delete", volumeMode: "Block" });
});

test("a PersistentVolumeClaim gets volumeMode Filesystem and a Pending phase", () => {
  const claim = defaulted("PersistentVolumeClaim", { spec: { accessModes: ["ReadWriteOnce"] } });
  expect(claim.spec).toEqual({ accessModes: ["ReadWriteOnce"], volumeMode: "Filesystem" });
  expect(claim.status).toEqual({ phase: "Pending" });
});

test("Endpoints ports default to TCP", () => {
  const endpoints = defaulted("Endpoints", { subsets: [{ ports: [{ port: 80 }, { port: 53, protocol: "UDP" }] }] });
  expect(endpoints.subsets).toEqual([{ ports: [{ port: 80, protocol: "TCP" }, { port: 53, protocol: "UDP" }] }]);
});

test("a Namespace always carries its name in the kubernetes.io/metadata.name label", () => {
  const namespace = defaulted("Namespace", { metadata: { name: "team", labels: { a: "b", "kubernetes.io/metadata.name": "spoofed" } } });
  expect(namespace.metadata.labels).toEqual({ a: "b", "kubernetes.io/metadata.name": "team" });
  expect(namespace.status).toEqual({ phase: "Active" });
});

test("a Node's allocatable defaults to its capacity", () => {
  expect(defaulted("Node", { status: { capacity: { cpu: "4" } } }).status).toEqual({ capacity: { cpu: "4" }, allocatable: { cpu: "4" } });
  expect(defaulted("Node", { status: { capacity: { cpu: "4" }, allocatable: { cpu: "3" } } }).status).toMatchObject({
    allocatable: { cpu: "3" },
  });
});

test("a Container LimitRange item's defaults fall back to max, then the default limit, then min", () => {
  const limitRange = defaulted("LimitRange", {
    spec: { limits: [{ type: "Container", max: { cpu: "2" }, min: { memory: "64Mi" } }, { type: "Pod", max: { cpu: "4" } }] },
  });
  expect(limitRange.spec).toEqual({
    limits: [
      {
        type: "Container",
        max: { cpu: "2" },
        min: { memory: "64Mi" },
        default: { cpu: "2" },
        defaultRequest: { cpu: "2", memory: "64Mi" },
      },
      { type: "Pod", max: { cpu: "4" } },
    ],
  });
});
