import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { isDaemonPodUpdated, newDaemonPod, pinnedToNode, targetNodeOf } from "./daemonset-pods.ts";

const ds: KubeObject = {
  apiVersion: "apps/v1",
  kind: "DaemonSet",
  metadata: { name: "agent", namespace: "kube-system", uid: "u1", annotations: { "deprecated.daemonset.template.generation": "4" } },
  spec: { template: { metadata: { labels: { app: "agent" } }, spec: { containers: [{ name: "c" }] } } },
};

test("pinnedToNode() replaces the required node selector terms and keeps the rest of the affinity", () => {
  const affinity = {
    podAntiAffinity: { x: 1 },
    nodeAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [],
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: "zone", operator: "In", values: ["a"] }] }],
      },
    },
  };
  expect(pinnedToNode(affinity, "n1")).toEqual({
    podAntiAffinity: { x: 1 },
    nodeAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [],
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [{ key: "metadata.name", operator: "In", values: ["n1"] }] }],
      },
    },
  });
});

test("newDaemonPod() labels the pod with the hash and template generation and pins it to its node", () => {
  const pod = newDaemonPod(ds, "n2", "abc");
  expect(pod.metadata).toMatchObject({
    generateName: "agent-",
    namespace: "kube-system",
    labels: { app: "agent", "controller-revision-hash": "abc", "pod-template-generation": "4" },
    ownerReferences: [{ kind: "DaemonSet", name: "agent", controller: true }],
  });
  expect(targetNodeOf(pod)).toBe("n2");
  expect(targetNodeOf({ metadata: {}, spec: { nodeName: "n3", affinity: (pod.spec as { affinity?: unknown }).affinity } })).toBe("n3");
  expect(targetNodeOf({ metadata: {}, spec: {} })).toBeUndefined();
});

test("isDaemonPodUpdated() accepts the current hash or the current template generation", () => {
  const labelled = (labels: Record<string, string>): KubeObject => ({ metadata: { labels } });
  expect(isDaemonPodUpdated(ds, labelled({ "controller-revision-hash": "abc" }), "abc")).toBe(true);
  expect(isDaemonPodUpdated(ds, labelled({ "pod-template-generation": "4" }), "abc")).toBe(true);
  expect(isDaemonPodUpdated(ds, labelled({ "controller-revision-hash": "old", "pod-template-generation": "3" }), "abc")).toBe(false);
});
