import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { claimsFor, newStatefulSetPod, ordinalOf } from "./statefulset-pods.ts";

const set: KubeObject = {
  apiVersion: "apps/v1",
  kind: "StatefulSet",
  metadata: { name: "web", namespace: "shop", uid: "u1" },
  spec: {
    serviceName: "nginx",
    selector: { matchLabels: { app: "web" } },
    volumeClaimTemplates: [{
      metadata: { name: "www", labels: { tier: "disk" } },
      spec: { accessModes: ["ReadWriteOnce"] },
      status: { phase: "Pending" },
    }],
  },
};

test("ordinalOf() reads <set>-<n> and rejects other names", () => {
  expect(ordinalOf(set, { metadata: { name: "web-12" } })).toBe(12);
  expect(ordinalOf(set, { metadata: { name: "web-a" } })).toBe(-1);
  expect(ordinalOf(set, { metadata: { name: "webx-1" } })).toBe(-1);
  expect(ordinalOf(set, { metadata: { name: "web-x-1" } })).toBe(-1);
});

test("newStatefulSetPod() names the pod by ordinal, sets hostname, subdomain and identity labels, and mounts its claim", () => {
  const template = {
    metadata: { labels: { app: "web" } },
    spec: { containers: [{ name: "c" }], volumes: [{ name: "www", emptyDir: {} }, { name: "tmp", emptyDir: {} }] },
  };
  const pod = newStatefulSetPod(set, template, { ordinal: 2, revision: "web-abc" });
  expect(pod.metadata).toMatchObject({
    name: "web-2",
    namespace: "shop",
    labels: { app: "web", "statefulset.kubernetes.io/pod-name": "web-2", "controller-revision-hash": "web-abc" },
    ownerReferences: [{ kind: "StatefulSet", name: "web", controller: true }],
  });
  expect(pod.spec).toMatchObject({ hostname: "web-2", subdomain: "nginx" });
  expect((pod.spec as { volumes: unknown[] }).volumes).toEqual([{ name: "www", persistentVolumeClaim: { claimName: "www-web-2" } }, {
    name: "tmp",
    emptyDir: {},
  }]);
});

test("claimsFor() names claims <claim>-<set>-<ordinal>, adds the selector's labels and drops the template status", () => {
  expect(claimsFor(set, 1)).toEqual([{
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name: "www-web-1", namespace: "shop", labels: { tier: "disk", app: "web" } },
    spec: { accessModes: ["ReadWriteOnce"] },
  }]);
});
