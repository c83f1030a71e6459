/** StorageObjectInUseProtection: new PVCs and PVs get the finalizer that keeps them while a pod uses them. */
import type { BuiltInAdmissionFactory } from "../../core/admission/types.ts";
import { isWriteTo } from "../_match.ts";

const FINALIZERS: Record<string, string> = {
  persistentvolumeclaims: "kubernetes.io/pvc-protection",
  persistentvolumes: "kubernetes.io/pv-protection",
};

const storageObjectInUseProtection: BuiltInAdmissionFactory = () => ({
  name: "StorageObjectInUseProtection",
  handles: (attributes) => Object.keys(FINALIZERS).some((resource) => isWriteTo(attributes, "", resource, ["CREATE"])),
  admit({ object, resource }) {
    const finalizer = FINALIZERS[resource.resource]!;
    const finalizers = object!.metadata.finalizers ?? [];
    if (!finalizers.includes(finalizer)) object!.metadata.finalizers = [...finalizers, finalizer];
  },
});

export default storageObjectInUseProtection;
