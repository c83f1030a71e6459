/**
 * Printers for PersistentVolumes, PersistentVolumeClaims, StorageClasses, CSIDrivers, CSINodes, CSIStorageCapacities
 * and VolumeAttachments.
 */
import type { KubeObject } from "../types.ts";
import { quantityText } from "./_format.ts";
import { AGE_COLUMN, column, definePrinter, NAME_COLUMN, wideColumn } from "./_printer.ts";
import { ageOf } from "./duration.ts";

const BETA_STORAGE_CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class";
const DEFAULT_CLASS_ANNOTATIONS = ["storageclass.kubernetes.io/is-default-class", "storageclass.beta.kubernetes.io/is-default-class"];
const ACCESS_MODE_ABBREVIATIONS: [string, string][] = [
  ["ReadWriteOnce", "RWO"],
  ["ReadOnlyMany", "ROX"],
  ["ReadWriteMany", "RWX"],
  ["ReadWriteOncePod", "RWOP"],
];

interface PersistentVolume extends KubeObject {
  spec?: {
    capacity?: Record<string, string>;
    accessModes?: string[];
    persistentVolumeReclaimPolicy?: string;
    claimRef?: { namespace?: string; name?: string };
    storageClassName?: string;
    volumeMode?: string;
  };
  status?: { phase?: string; reason?: string };
}

interface PersistentVolumeClaim extends KubeObject {
  spec?: { volumeName?: string; storageClassName?: string | null; volumeMode?: string };
  status?: { phase?: string; accessModes?: string[]; capacity?: Record<string, string> };
}

/** helper.GetAccessModesAsString: abbreviations in a fixed order, each once. */
function accessModesText(modes: string[] | undefined): string {
  return ACCESS_MODE_ABBREVIATIONS.filter(([mode]) => modes?.includes(mode)).map(([, short]) => short).join(",");
}

/** The beta storage-class annotation wins over spec.storageClassName, as in kube's helpers. */
function storageClassOf(obj: KubeObject, specClass: string | null | undefined): string {
  const annotations = obj.metadata.annotations ?? {};
  return Object.hasOwn(annotations, BETA_STORAGE_CLASS_ANNOTATION) ? annotations[BETA_STORAGE_CLASS_ANNOTATION] : specClass ?? "";
}

const phaseOf = (obj: KubeObject, phase: string | undefined) => (obj.metadata.deletionTimestamp ? "Terminating" : phase ?? "");
const VOLUME_MODE_COLUMN = wideColumn("VolumeMode", "Filesystem or Block");

export const persistentVolumePrinter = definePrinter<PersistentVolume>(
  [
    NAME_COLUMN,
    column("Capacity", "Storage capacity"),
    column("Access Modes", "How the volume can be mounted"),
    column("Reclaim Policy", "What happens to the volume when released"),
    column("Status", "The volume's phase"),
    column("Claim", "The claim bound to the volume"),
    column("StorageClass", "The volume's storage class"),
    column("Reason", "Why the volume is in its phase"),
    AGE_COLUMN,
    VOLUME_MODE_COLUMN,
  ],
  (pv, now) => {
    const spec = pv.spec ?? {};
    return [
      pv.metadata.name,
      quantityText(spec.capacity?.storage),
      accessModesText(spec.accessModes),
      spec.persistentVolumeReclaimPolicy ?? "",
      phaseOf(pv, pv.status?.phase),
      spec.claimRef ? `${spec.claimRef.namespace ?? ""}/${spec.claimRef.name ?? ""}` : "",
      storageClassOf(pv, spec.storageClassName),
      pv.status?.reason ?? "",
      ageOf(pv, now),
      spec.volumeMode ?? "<unset>",
    ];
  },
);

export const persistentVolumeClaimPrinter = definePrinter<PersistentVolumeClaim>(
  [
    NAME_COLUMN,
    column("Status", "The claim's phase"),
    column("Volume", "The volume bound to the claim"),
    column("Capacity", "Capacity of the bound volume"),
    column("Access Modes", "How the bound volume can be mounted"),
    column("StorageClass", "The claim's storage class"),
    AGE_COLUMN,
    VOLUME_MODE_COLUMN,
  ],
  (pvc, now) => {
    const bound = Boolean(pvc.spec?.volumeName);
    return [
      pvc.metadata.name,
      phaseOf(pvc, pvc.status?.phase),
      pvc.spec?.volumeName ?? "",
      bound ? quantityText(pvc.status?.capacity?.storage) : "",
      bound ? accessModesText(pvc.status?.accessModes) : "",
      storageClassOf(pvc, pvc.spec?.storageClassName),
      ageOf(pvc, now),
      pvc.spec?.volumeMode ?? "<unset>",
    ];
  },
);

interface StorageClass extends KubeObject {
  provisioner?: string;
  reclaimPolicy?: string;
  volumeBindingMode?: string;
  allowVolumeExpansion?: boolean;
}

export const storageClassPrinter = definePrinter<StorageClass>(
  [
    NAME_COLUMN,
    column("Provisioner", "The volume plugin that provisions volumes"),
    column("ReclaimPolicy", "Reclaim policy of provisioned volumes"),
    column("VolumeBindingMode", "When volumes are bound and provisioned"),
    column("AllowVolumeExpansion", "Whether volumes can be expanded"),
    AGE_COLUMN,
  ],
  (sc, now) => {
    const isDefault = DEFAULT_CLASS_ANNOTATIONS.some((key) => sc.metadata.annotations?.[key] === "true");
    return [
      isDefault ? `${sc.metadata.name} (default)` : sc.metadata.name,
      sc.provisioner ?? "",
      sc.reclaimPolicy ?? "Delete",
      sc.volumeBindingMode ?? "Immediate",
      sc.allowVolumeExpansion ?? false,
      ageOf(sc, now),
    ];
  },
);

interface CSIDriver extends KubeObject {
  spec?: {
    attachRequired?: boolean;
    podInfoOnMount?: boolean;
    storageCapacity?: boolean;
    tokenRequests?: { audience: string }[] | null;
    requiresRepublish?: boolean;
    volumeLifecycleModes?: string[];
  };
}

export const csiDriverPrinter = definePrinter<CSIDriver>(
  [
    NAME_COLUMN,
    column("AttachRequired", "Whether volumes need an attach step", { type: "boolean" }),
    column("PodInfoOnMount", "Whether pod details are passed on mount", { type: "boolean" }),
    column("StorageCapacity", "Whether capacity is reported", { type: "boolean" }),
    column("TokenRequests", "Audiences of service account tokens passed on mount"),
    column("RequiresRepublish", "Whether volumes are remounted periodically", { type: "boolean" }),
    column("Modes", "Supported volume lifecycle modes"),
    AGE_COLUMN,
  ],
  (driver, now) => {
    const spec = driver.spec ?? {};
    const modes = (spec.volumeLifecycleModes ?? []).join(",");
    return [
      driver.metadata.name,
      spec.attachRequired ?? true,
      spec.podInfoOnMount ?? false,
      spec.storageCapacity ?? false,
      spec.tokenRequests ? spec.tokenRequests.map((t) => t.audience).join(",") : "<unset>",
      spec.requiresRepublish ?? false,
      modes || "<none>",
      ageOf(driver, now),
    ];
  },
);

export const csiNodePrinter = definePrinter<KubeObject & { spec?: { drivers?: unknown[] } }>(
  [NAME_COLUMN, column("Drivers", "Number of CSI drivers registered on the node", { type: "integer" }), AGE_COLUMN],
  (node, now) => [node.metadata.name, node.spec?.drivers?.length ?? 0, ageOf(node, now)],
);

interface VolumeAttachment extends KubeObject {
  spec?: { attacher?: string; nodeName?: string; source?: { persistentVolumeName?: string } };
  status?: { attached?: boolean };
}

export const volumeAttachmentPrinter = definePrinter<VolumeAttachment>(
  [
    NAME_COLUMN,
    // kube marks this column with the "name" format too.
    column("Attacher", "The driver that attaches the volume", { format: "name" }),
    column("PV", "The persistent volume being attached"),
    column("Node", "The node the volume is attached to"),
    column("Attached", "Whether the volume is attached", { type: "boolean" }),
    AGE_COLUMN,
  ],
  (va, now) => [
    va.metadata.name,
    va.spec?.attacher ?? "",
    va.spec?.source?.persistentVolumeName ?? "",
    va.spec?.nodeName ?? "",
    va.status?.attached ?? false,
    ageOf(va, now),
  ],
);

/** printCSIStorageCapacity: no Age column; "<unset>" when the capacity is not known. */
export const csiStorageCapacityPrinter = definePrinter<KubeObject & { storageClassName?: string; capacity?: string }>(
  [
    NAME_COLUMN,
    column("StorageClassName", "The storage class the capacity is for"),
    column("Capacity", "Capacity available for new volumes"),
  ],
  (capacity) => [capacity.metadata.name, capacity.storageClassName ?? "", capacity.capacity ?? "<unset>"],
);
