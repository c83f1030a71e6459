import { expect, test } from "bun:test";
import { defaultVolume } from "./volumes.ts";
import type { Fields } from "./_fields.ts";

function defaulted(volume: Fields): Fields {
  defaultVolume(volume);
  return volume;
}

test("defaultVolume() makes a volume without a source an emptyDir", () => {
  expect(defaulted({ name: "scratch" })).toEqual({ name: "scratch", emptyDir: {} });
  expect(defaulted({ name: "data", persistentVolumeClaim: { claimName: "c" } })).toEqual({
    name: "data",
    persistentVolumeClaim: { claimName: "c" },
  });
});

test("defaultVolume() gives secret, configMap, downwardAPI and projected volumes mode 0644", () => {
  for (const source of ["secret", "configMap", "downwardAPI", "projected"]) {
    expect(defaulted({ name: "v", [source]: {} })[source]).toMatchObject({ defaultMode: 420 });
  }
  expect(defaulted({ name: "v", secret: { secretName: "s", defaultMode: 256 } }).secret).toEqual({ secretName: "s", defaultMode: 256 });
});

test("defaultVolume() fills projected token lifetimes and downward-API field references", () => {
  const volume = defaulted({
    name: "token",
    projected: {
      sources: [{ serviceAccountToken: { path: "token" } }, {
        downwardAPI: { items: [{ path: "ns", fieldRef: { fieldPath: "metadata.namespace" } }] },
      }],
    },
  });
  expect(volume.projected).toEqual({
    defaultMode: 420,
    sources: [
      { serviceAccountToken: { path: "token", expirationSeconds: 3600 } },
      { downwardAPI: { items: [{ path: "ns", fieldRef: { fieldPath: "metadata.namespace", apiVersion: "v1" } }] } },
    ],
  });
});

test("defaultVolume() fills hostPath type, ephemeral claim volumeMode and legacy plugin defaults", () => {
  expect(defaulted({ name: "h", hostPath: { path: "/x" } }).hostPath).toEqual({ path: "/x", type: "" });
  expect(defaulted({ name: "h", hostPath: { path: "/x", type: "Directory" } }).hostPath).toEqual({ path: "/x", type: "Directory" });
  expect(defaulted({ name: "e", ephemeral: { volumeClaimTemplate: { spec: { accessModes: ["ReadWriteOnce"] } } } }).ephemeral).toEqual({
    volumeClaimTemplate: { spec: { accessModes: ["ReadWriteOnce"], volumeMode: "Filesystem" } },
  });
  expect(defaulted({ name: "r", rbd: { image: "i" } }).rbd).toEqual({
    image: "i",
    pool: "rbd",
    user: "admin",
    keyring: "/etc/ceph/keyring",
  });
  expect(defaulted({ name: "a", azureDisk: { diskName: "d" } }).azureDisk).toEqual({
    diskName: "d",
    cachingMode: "ReadWrite",
    kind: "Shared",
    fsType: "ext4",
    readOnly: false,
  });
  expect(defaulted({ name: "i", iscsi: {} }).iscsi).toEqual({ iscsiInterface: "default" });
  expect(defaulted({ name: "s", scaleIO: {} }).scaleIO).toEqual({ storageMode: "ThinProvisioned", fsType: "xfs" });
});
