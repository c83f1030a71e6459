import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { APPS_DEFAULTERS } from "./apps.ts";

const TEMPLATE = { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "web", image: "nginx" }] } };

function defaulted(kind: string, spec: Record<string, unknown>): Record<string, unknown> {
  const obj: KubeObject = { apiVersion: "apps/v1", kind, metadata: { name: "x" }, spec: { template: structuredClone(TEMPLATE), ...spec } };
  APPS_DEFAULTERS.kinds[kind](obj);
  return obj.spec as Record<string, unknown>;
}

test("a Deployment gets replicas, a 25%/25% rolling update, history and progress deadline, and pod template defaults", () => {
  const spec = defaulted("Deployment", {});
  expect(spec).toMatchObject({
    replicas: 1,
    strategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: "25%", maxSurge: "25%" } },
    revisionHistoryLimit: 10,
    progressDeadlineSeconds: 600,
    template: {
      spec: { restartPolicy: "Always", containers: [{ imagePullPolicy: "Always", terminationMessagePath: "/dev/termination-log" }] },
    },
  });
});

test("a Deployment keeps explicit values and a Recreate strategy gets no rollingUpdate", () => {
  const spec = defaulted("Deployment", {
    replicas: 0,
    strategy: { type: "Recreate" },
    revisionHistoryLimit: 2,
    progressDeadlineSeconds: 60,
  });
  expect(spec).toMatchObject({ replicas: 0, strategy: { type: "Recreate" }, revisionHistoryLimit: 2, progressDeadlineSeconds: 60 });
  expect(spec.strategy).not.toHaveProperty("rollingUpdate");
  const partial = defaulted("Deployment", { strategy: { rollingUpdate: { maxSurge: 0 } } });
  expect(partial.strategy).toEqual({ type: "RollingUpdate", rollingUpdate: { maxSurge: 0, maxUnavailable: "25%" } });
});

test("a ReplicaSet gets replicas 1 and pod template defaults but no revision history", () => {
  const spec = defaulted("ReplicaSet", {});
  expect(spec).toMatchObject({ replicas: 1, template: { spec: { dnsPolicy: "ClusterFirst" } } });
  expect(spec).not.toHaveProperty("revisionHistoryLimit");
});

test("a StatefulSet gets OrderedReady, a rolling update from partition 0, replicas and history", () => {
  const spec = defaulted("StatefulSet", { serviceName: "web" });
  expect(spec).toMatchObject({
    replicas: 1,
    podManagementPolicy: "OrderedReady",
    revisionHistoryLimit: 10,
    updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: 0 } },
  });
  // The feature gates behind these are alpha (off) in 1.26.
  expect(spec).not.toHaveProperty("persistentVolumeClaimRetentionPolicy");
  expect(spec.updateStrategy).not.toHaveProperty("rollingUpdate.maxUnavailable");
});

test("a StatefulSet keeps an explicit strategy and defaults its claim templates", () => {
  const onDelete = defaulted("StatefulSet", { updateStrategy: { type: "OnDelete" }, podManagementPolicy: "Parallel" });
  expect(onDelete).toMatchObject({ updateStrategy: { type: "OnDelete" }, podManagementPolicy: "Parallel" });
  expect(onDelete.updateStrategy).not.toHaveProperty("rollingUpdate");
  // An explicit RollingUpdate without parameters stays without them.
  expect(defaulted("StatefulSet", { updateStrategy: { type: "RollingUpdate" } }).updateStrategy).toEqual({ type: "RollingUpdate" });
  const claims = defaulted("StatefulSet", {
    volumeClaimTemplates: [{ metadata: { name: "data" }, spec: { accessModes: ["ReadWriteOnce"] } }],
  });
  expect(claims.volumeClaimTemplates).toEqual([
    { metadata: { name: "data" }, spec: { accessModes: ["ReadWriteOnce"], volumeMode: "Filesystem" }, status: { phase: "Pending" } },
  ]);
});

test("a DaemonSet gets a rolling update of one unavailable and no surge, and history", () => {
  const spec = defaulted("DaemonSet", {});
  expect(spec).toMatchObject({
    updateStrategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
    revisionHistoryLimit: 10,
  });
  expect(spec).not.toHaveProperty("replicas");
  expect(defaulted("DaemonSet", { updateStrategy: { type: "OnDelete" } }).updateStrategy).toEqual({ type: "OnDelete" });
});
