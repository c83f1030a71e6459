/**
 * What a Pod or a PersistentVolume refers to, as kube's podutil.VisitPodSecretNames / VisitPodConfigmapNames
 * and pvutil.VisitPVSecretNames see it: the objects a node running the Pod may read.
 */
import type { KubeObject } from "./types.ts";

type Raw = Record<string, unknown>;

export interface PodReferences {
  secrets: string[];
  configMaps: string[];
  claims: string[];
  serviceAccount: string;
}

const object = (value: unknown): Raw => (value && typeof value === "object" && !Array.isArray(value) ? (value as Raw) : {});
const list = (value: unknown): Raw[] => (Array.isArray(value) ? value.map(object) : []);
const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** Volume sources whose credentials are a LocalObjectReference (`secretRef.name`) in the Pod's namespace. */
const SECRET_REF_VOLUMES = ["cephfs", "cinder", "flexVolume", "rbd", "scaleIO", "iscsi", "storageos"];

function containers(spec: Raw): Raw[] {
  return [...list(spec.initContainers), ...list(spec.containers), ...list(spec.ephemeralContainers)];
}

function envNames(spec: Raw, keyRef: "secretKeyRef" | "configMapKeyRef", fromRef: "secretRef" | "configMapRef"): string[] {
  return containers(spec).flatMap((c) => [
    ...list(c.envFrom).map((from) => text(object(from[fromRef]).name)),
    ...list(c.env).map((env) => text(object(object(env.valueFrom)[keyRef]).name)),
  ]);
}

function volumeSecretNames(volume: Raw): string[] {
  return [
    text(object(volume.secret).secretName),
    text(object(volume.azureFile).secretName),
    text(object(object(volume.csi).nodePublishSecretRef).name),
    ...SECRET_REF_VOLUMES.map((source) => text(object(object(volume[source]).secretRef).name)),
    ...list(object(volume.projected).sources).map((source) => text(object(source.secret).name)),
  ];
}

function volumeConfigMapNames(volume: Raw): string[] {
  return [
    text(object(volume.configMap).name),
    ...list(object(volume.projected).sources).map((source) => text(object(source.configMap).name)),
  ];
}

const present = (names: string[]): string[] => [...new Set(names.filter((name) => name !== ""))];

export function podReferences(pod: KubeObject): PodReferences {
  const spec = object(pod.spec);
  const volumes = list(spec.volumes);
  return {
    secrets: present([
      ...list(spec.imagePullSecrets).map((s) => text(s.name)),
      ...envNames(spec, "secretKeyRef", "secretRef"),
      ...volumes.flatMap(volumeSecretNames),
    ]),
    configMaps: present([...envNames(spec, "configMapKeyRef", "configMapRef"), ...volumes.flatMap(volumeConfigMapNames)]),
    // A generic ephemeral volume's claim is named <pod>-<volume>.
    claims: present(
      volumes.map((v) => text(object(v.persistentVolumeClaim).claimName) || (v.ephemeral ? `${pod.metadata.name}-${text(v.name)}` : "")),
    ),
    serviceAccount: text(spec.serviceAccountName),
  };
}

/**
 * `namespace/name` of each Secret a node uses to mount a PersistentVolume (kube's kubelet-visible ones: not the
 * CSI controller secrets); a reference without a namespace means the bound claim's namespace.
 */
export function persistentVolumeSecrets(pv: KubeObject): string[] {
  const spec = object(pv.spec);
  const claimNamespace = text(object(spec.claimRef).namespace);
  const key = (ref: Raw, fallbackNamespace: string) => {
    const name = text(ref.name);
    const namespace = text(ref.namespace) || fallbackNamespace;
    return name && namespace ? `${namespace}/${name}` : "";
  };
  const csi = object(spec.csi);
  const csiRefs = ["nodeStageSecretRef", "nodePublishSecretRef", "nodeExpandSecretRef"];
  const azureFile = object(spec.azureFile);
  return present([
    ...csiRefs.map((field) => key(object(csi[field]), "")),
    ...SECRET_REF_VOLUMES.map((source) => key(object(object(spec[source]).secretRef), claimNamespace)),
    key({ name: azureFile.secretName, namespace: azureFile.secretNamespace }, claimNamespace),
  ]);
}
