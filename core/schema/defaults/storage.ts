/** storage.k8s.io/v1 defaults (pkg/apis/storage/v1/defaults.go of kube 1.26). */
import type { KubeObject } from "../../api/types.ts";
import { defaultPointer, isEmpty, objectAt } from "./_fields.ts";
import type { KindDefaulters } from "./_registry.ts";

function defaultStorageClass(storageClass: KubeObject): void {
  defaultPointer(storageClass, "reclaimPolicy", "Delete");
  defaultPointer(storageClass, "volumeBindingMode", "Immediate");
}

function defaultCSIDriver(driver: KubeObject): void {
  const spec = objectAt(driver, "spec");
  if (!spec) return;
  defaultPointer(spec, "attachRequired", true);
  defaultPointer(spec, "podInfoOnMount", false);
  defaultPointer(spec, "storageCapacity", false);
  defaultPointer(spec, "fsGroupPolicy", "ReadWriteOnceWithFSType");
  if (isEmpty(spec.volumeLifecycleModes)) spec.volumeLifecycleModes = ["Persistent"];
  defaultPointer(spec, "requiresRepublish", false);
}

export const STORAGE_DEFAULTERS: KindDefaulters = {
  group: "storage.k8s.io",
  version: "v1",
  kinds: { StorageClass: defaultStorageClass, CSIDriver: defaultCSIDriver },
};
