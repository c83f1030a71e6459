import { expect, test } from "bun:test";
import { persistentVolumeSecrets, podReferences } from "./pod-references.ts";

test("podReferences() finds secrets, config maps, claims and the service account in every place a Pod names them", () => {
  const container = {
    name: "c",
    env: [{ name: "A", valueFrom: { secretKeyRef: { name: "env-secret", key: "k" } } }, {
      name: "B",
      valueFrom: { configMapKeyRef: { name: "env-cm", key: "k" } },
    }],
    envFrom: [{ secretRef: { name: "from-secret" } }, { configMapRef: { name: "from-cm" } }],
  };
  const pod = {
    metadata: { name: "web", namespace: "ns" },
    spec: {
      serviceAccountName: "runner",
      imagePullSecrets: [{ name: "pull" }],
      initContainers: [{ name: "i", envFrom: [{ secretRef: { name: "init-secret" } }] }],
      containers: [container],
      volumes: [
        { name: "s", secret: { secretName: "vol-secret" } },
        { name: "cm", configMap: { name: "vol-cm" } },
        { name: "p", projected: { sources: [{ secret: { name: "proj-secret" } }, { configMap: { name: "proj-cm" } }] } },
        { name: "csi", csi: { driver: "d", nodePublishSecretRef: { name: "csi-secret" } } },
        { name: "data", persistentVolumeClaim: { claimName: "data-claim" } },
        { name: "scratch", ephemeral: { volumeClaimTemplate: { spec: {} } } },
      ],
    },
  };
  expect(podReferences(pod)).toEqual({
    secrets: ["pull", "init-secret", "from-secret", "env-secret", "vol-secret", "proj-secret", "csi-secret"],
    configMaps: ["from-cm", "env-cm", "vol-cm", "proj-cm"],
    claims: ["data-claim", "web-scratch"],
    serviceAccount: "runner",
  });
});

test("persistentVolumeSecrets() names the node-side secrets, in the claim's namespace when the reference has none", () => {
  const pv = {
    metadata: { name: "pv" },
    spec: {
      claimRef: { namespace: "team", name: "c" },
      csi: {
        driver: "d",
        nodeStageSecretRef: { name: "stage", namespace: "infra" },
        controllerPublishSecretRef: { name: "controller", namespace: "infra" },
      },
      rbd: { secretRef: { name: "ceph" } },
    },
  };
  expect(persistentVolumeSecrets(pv)).toEqual(["infra/stage", "team/ceph"]);
});
