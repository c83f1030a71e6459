import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { STORAGE_DEFAULTERS } from "./storage.ts";

test("a StorageClass reclaims with Delete and binds Immediately unless told otherwise", () => {
  const plain: KubeObject = { apiVersion: "storage.k8s.io/v1", kind: "StorageClass", metadata: { name: "s" }, provisioner: "p" };
  STORAGE_DEFAULTERS.kinds.StorageClass(plain);
  expect(plain).toMatchObject({ reclaimPolicy: "Delete", volumeBindingMode: "Immediate" });
  const explicit: KubeObject = {
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: { name: "s" },
    reclaimPolicy: "Retain",
    volumeBindingMode: "WaitForFirstConsumer",
  };
  STORAGE_DEFAULTERS.kinds.StorageClass(explicit);
  expect(explicit).toMatchObject({ reclaimPolicy: "Retain", volumeBindingMode: "WaitForFirstConsumer" });
});

test("a CSIDriver gets kube 1.26's attach, pod info, capacity, fsGroup, lifecycle and republish defaults", () => {
  const driver: KubeObject = {
    apiVersion: "storage.k8s.io/v1",
    kind: "CSIDriver",
    metadata: { name: "d" },
    spec: { podInfoOnMount: true },
  };
  STORAGE_DEFAULTERS.kinds.CSIDriver(driver);
  expect(driver.spec).toEqual({
    attachRequired: true,
    podInfoOnMount: true,
    storageCapacity: false,
    fsGroupPolicy: "ReadWriteOnceWithFSType",
    volumeLifecycleModes: ["Persistent"],
    requiresRepublish: false,
  });
});
