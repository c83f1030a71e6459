/** Defaults of pod volumes and of the volume sources a PersistentVolume shares with them (core/v1). */
import { defaultFieldRef } from "./container.ts";
import { defaultPointer, defaultString, type Fields, isUnset, objectAt, objectsAt } from "./_fields.ts";

/** 0644, the file mode of secret, configMap, downwardAPI and projected volumes. */
const DEFAULT_FILE_MODE = 420;
const TOKEN_LIFETIME_SECONDS = 3600;

export function defaultVolume(volume: Fields): void {
  // SetDefaults_Volume: a volume naming no source is an emptyDir.
  if (Object.entries(volume).every(([key, value]) => key === "name" || isUnset(value))) volume.emptyDir = {};
  for (const name of ["secret", "configMap", "downwardAPI", "projected"]) {
    const source = objectAt(volume, name);
    if (source) defaultPointer(source, "defaultMode", DEFAULT_FILE_MODE);
  }
  defaultDownwardApiItems(objectAt(volume, "downwardAPI"));
  for (const projection of objectsAt(objectAt(volume, "projected"), "sources")) {
    defaultDownwardApiItems(objectAt(projection, "downwardAPI"));
    const token = objectAt(projection, "serviceAccountToken");
    if (token) defaultPointer(token, "expirationSeconds", TOKEN_LIFETIME_SECONDS);
  }
  const claimSpec = objectAt(objectAt(objectAt(volume, "ephemeral"), "volumeClaimTemplate"), "spec");
  if (claimSpec) defaultClaimSpec(claimSpec);
  defaultSharedSources(volume);
}

function defaultDownwardApiItems(source: Fields | undefined): void {
  for (const item of objectsAt(source, "items")) defaultFieldRef(objectAt(item, "fieldRef"));
}

/** SetDefaults_PersistentVolumeClaimSpec, also applied to claim templates. */
export function defaultClaimSpec(spec: Fields): void {
  defaultPointer(spec, "volumeMode", "Filesystem");
}

/** Sources whose defaults hold both in a pod volume and in a PersistentVolume's spec. */
export function defaultSharedSources(source: Fields): void {
  const hostPath = objectAt(source, "hostPath");
  if (hostPath) defaultPointer(hostPath, "type", "");
  const iscsi = objectAt(source, "iscsi");
  if (iscsi) defaultString(iscsi, "iscsiInterface", "default");
  const rbd = objectAt(source, "rbd");
  if (rbd) {
    defaultString(rbd, "pool", "rbd");
    defaultString(rbd, "user", "admin");
    defaultString(rbd, "keyring", "/etc/ceph/keyring");
  }
  const azureDisk = objectAt(source, "azureDisk");
  if (azureDisk) {
    defaultPointer(azureDisk, "cachingMode", "ReadWrite");
    defaultPointer(azureDisk, "kind", "Shared");
    defaultPointer(azureDisk, "fsType", "ext4");
    defaultPointer(azureDisk, "readOnly", false);
  }
  const scaleIO = objectAt(source, "scaleIO");
  if (scaleIO) {
    defaultString(scaleIO, "storageMode", "ThinProvisioned");
    defaultString(scaleIO, "fsType", "xfs");
  }
}
