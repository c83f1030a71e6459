/** DefaultStorageClass: a PVC that names no class gets the default StorageClass (the newest if several). */
import type { KubeObject } from "../../core/api/types.ts";
import type { BuiltInAdmissionFactory } from "../../core/admission/types.ts";
import { isWriteTo } from "../_match.ts";
import { compareByteOrder } from "../../core/api/byte-order.ts";

const DEFAULT_ANNOTATIONS = ["storageclass.kubernetes.io/is-default-class", "storageclass.beta.kubernetes.io/is-default-class"];
const BETA_CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class";

const defaultStorageClass: BuiltInAdmissionFactory = ({ client }) => ({
  name: "DefaultStorageClass",
  handles: (attributes) => isWriteTo(attributes, "", "persistentvolumeclaims", ["CREATE"]),
  async admit({ object }) {
    const spec = (object!.spec ??= {}) as { storageClassName?: string };
    if (spec.storageClassName !== undefined || object!.metadata.annotations?.[BETA_CLASS_ANNOTATION] !== undefined) return;
    const classes = await client.list({ group: "storage.k8s.io", version: "v1", resource: "storageclasses" });
    const chosen = newest(classes.filter(isDefaultClass));
    if (chosen) spec.storageClassName = String(chosen.metadata.name);
  },
});

function isDefaultClass(storageClass: KubeObject): boolean {
  return DEFAULT_ANNOTATIONS.some((key) => storageClass.metadata.annotations?.[key] === "true");
}

function newest(classes: KubeObject[]): KubeObject | undefined {
  const key = (c: KubeObject) => `${c.metadata.creationTimestamp ?? ""}/${c.metadata.name}`;
  return classes.sort((a, b) => compareByteOrder(key(b), key(a)))[0];
}

export default defaultStorageClass;
