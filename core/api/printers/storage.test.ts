import { expect, test } from "bun:test";
import {
  csiDriverPrinter,
  csiNodePrinter,
  csiStorageCapacityPrinter,
  persistentVolumeClaimPrinter,
  persistentVolumePrinter,
  storageClassPrinter,
  volumeAttachmentPrinter,
} from "./storage.ts";
import { ago, columnNames, NOW, object } from "./_test-fixtures.ts";

test("storage columns match kube's", () => {
  expect(columnNames(persistentVolumePrinter.columns)).toEqual([
    "Name",
    "Capacity",
    "Access Modes",
    "Reclaim Policy",
    "Status",
    "Claim",
    "StorageClass",
    "Reason",
    "Age",
    "VolumeMode*",
  ]);
  expect(columnNames(persistentVolumeClaimPrinter.columns)).toEqual([
    "Name",
    "Status",
    "Volume",
    "Capacity",
    "Access Modes",
    "StorageClass",
    "Age",
    "VolumeMode*",
  ]);
  expect(columnNames(storageClassPrinter.columns)).toEqual([
    "Name",
    "Provisioner",
    "ReclaimPolicy",
    "VolumeBindingMode",
    "AllowVolumeExpansion",
    "Age",
  ]);
  expect(columnNames(csiDriverPrinter.columns)).toEqual([
    "Name",
    "AttachRequired",
    "PodInfoOnMount",
    "StorageCapacity",
    "TokenRequests",
    "RequiresRepublish",
    "Modes",
    "Age",
  ]);
  expect(columnNames(volumeAttachmentPrinter.columns)).toEqual(["Name", "Attacher", "PV", "Node", "Attached", "Age"]);
});

test("a bound persistent volume shows capacity, modes, claim and class", () => {
  const pv = object("pv-1", {
    spec: {
      capacity: { storage: "10Gi" },
      accessModes: ["ReadWriteMany", "ReadWriteOnce", "ReadWriteOnce"],
      persistentVolumeReclaimPolicy: "Retain",
      claimRef: { namespace: "shop", name: "data" },
      storageClassName: "fast",
      volumeMode: "Filesystem",
    },
    status: { phase: "Bound" },
  });
  expect(persistentVolumePrinter.cells(pv, NOW)).toEqual([
    "pv-1",
    "10Gi",
    "RWO,RWX",
    "Retain",
    "Bound",
    "shop/data",
    "fast",
    "",
    "5m",
    "Filesystem",
  ]);
});

test("a persistent volume being deleted is Terminating and the beta class annotation wins", () => {
  const pv = object("pv-2", { spec: { storageClassName: "fast" }, status: { phase: "Released" } }, {
    deletionTimestamp: ago(1),
    annotations: { "volume.beta.kubernetes.io/storage-class": "legacy" },
  });
  expect(persistentVolumePrinter.cells(pv, NOW)).toEqual(["pv-2", "0", "", "", "Terminating", "", "legacy", "", "5m", "<unset>"]);
});

test("claims show capacity and modes only once bound", () => {
  const bound = object("data", {
    spec: { volumeName: "pv-1", storageClassName: "fast", volumeMode: "Block" },
    status: { phase: "Bound", capacity: { storage: "10Gi" }, accessModes: ["ReadWriteOncePod"] },
  });
  expect(persistentVolumeClaimPrinter.cells(bound, NOW)).toEqual(["data", "Bound", "pv-1", "10Gi", "RWOP", "fast", "5m", "Block"]);
  const pending = object("wait", { spec: {}, status: { phase: "Pending", capacity: { storage: "1Gi" } } });
  expect(persistentVolumeClaimPrinter.cells(pending, NOW)).toEqual(["wait", "Pending", "", "", "", "", "5m", "<unset>"]);
});

test("storage classes mark the default and fill in kube's defaults", () => {
  const sc = object("standard", { provisioner: "rancher.io/local-path" }, {
    annotations: { "storageclass.kubernetes.io/is-default-class": "true" },
  });
  expect(storageClassPrinter.cells(sc, NOW)).toEqual(["standard (default)", "rancher.io/local-path", "Delete", "Immediate", false, "5m"]);
  const custom = object("fast", {
    provisioner: "p",
    reclaimPolicy: "Retain",
    volumeBindingMode: "WaitForFirstConsumer",
    allowVolumeExpansion: true,
  });
  expect(storageClassPrinter.cells(custom, NOW)).toEqual(["fast", "p", "Retain", "WaitForFirstConsumer", true, "5m"]);
});

test("CSI drivers, nodes and volume attachments print kube's cells", () => {
  const driver = object("csi.example.com", {
    spec: {
      attachRequired: false,
      tokenRequests: [{ audience: "vault" }, { audience: "gcp" }],
      volumeLifecycleModes: ["Persistent", "Ephemeral"],
    },
  });
  expect(csiDriverPrinter.cells(driver, NOW)).toEqual([
    "csi.example.com",
    false,
    false,
    false,
    "vault,gcp",
    false,
    "Persistent,Ephemeral",
    "5m",
  ]);
  expect(csiDriverPrinter.cells(object("d", { spec: {} }), NOW)).toEqual(["d", true, false, false, "<unset>", false, "<none>", "5m"]);
  expect(csiNodePrinter.cells(object("node-1", { spec: { drivers: [{}, {}] } }), NOW)).toEqual(["node-1", 2, "5m"]);
  const attachment = object("csi-123", {
    spec: { attacher: "csi.example.com", nodeName: "node-1", source: { persistentVolumeName: "pv-1" } },
    status: { attached: true },
  });
  expect(volumeAttachmentPrinter.cells(attachment, NOW)).toEqual(["csi-123", "csi.example.com", "pv-1", "node-1", true, "5m"]);
});

test("printCSIStorageCapacity: Name, StorageClassName, Capacity (<unset> when unknown), no Age", () => {
  expect(columnNames(csiStorageCapacityPrinter.columns)).toEqual(["Name", "StorageClassName", "Capacity"]);
  expect(csiStorageCapacityPrinter.cells(object("cap-1", { storageClassName: "fast", capacity: "10Gi" }), NOW)).toEqual([
    "cap-1",
    "fast",
    "10Gi",
  ]);
  expect(csiStorageCapacityPrinter.cells(object("cap-2", { storageClassName: "fast" }), NOW)).toEqual(["cap-2", "fast", "<unset>"]);
});
