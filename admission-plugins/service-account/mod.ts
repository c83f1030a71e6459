/**
 * ServiceAccount (spec 5.6.1-5.6.2): a pod runs as `default` unless it names an account; the account must exist
 * (the default one may still be on its way from the controller, so a missing one is retried briefly); unless
 * automount is off, every container mounts kube's projected token volume; the account's imagePullSecrets are
 * copied to a pod that has none.
 */
import { admissionForbidden } from "../../core/admission/errors.ts";
import type { KubeObject } from "../../core/api/types.ts";
import type { BuiltInAdmissionFactory } from "../../core/admission/types.ts";
import type { ReadOnlyClient } from "../../core/api/client.ts";
import { type Container, isWriteTo, podSpec } from "../_match.ts";
import { tokenVolume, tokenVolumeName } from "./token-volume.ts";

export const TOKEN_MOUNT_PATH = "/var/run/secrets/kubernetes.io/serviceaccount";
const VOLUME_PREFIX = "kube-api-access-";
const LOOKUP_ATTEMPTS = 10;
const LOOKUP_INTERVAL_MS = 200;

interface ServiceAccountSpec {
  serviceAccountName?: string;
  serviceAccount?: string;
  automountServiceAccountToken?: boolean;
  imagePullSecrets?: { name: string }[];
  containers?: Container[];
  initContainers?: Container[];
  volumes?: { name: string }[];
}

const serviceAccount: BuiltInAdmissionFactory = ({ client }) => ({
  name: "ServiceAccount",
  handles: (attributes) => isWriteTo(attributes, "", "pods", ["CREATE"]) && !isMirrorPod(attributes.object!),
  async admit(attributes) {
    const spec = podSpec(attributes.object!) as ServiceAccountSpec;
    spec.serviceAccountName ||= "default";
    spec.serviceAccount = spec.serviceAccountName;
    const account = await lookUp(client, attributes.namespace, spec.serviceAccountName);
    if (!account) {
      const reason = `serviceaccount "${spec.serviceAccountName}" not found`;
      throw admissionForbidden(
        attributes,
        `error looking up service account ${attributes.namespace}/${spec.serviceAccountName}: ${reason}`,
      );
    }
    if (shouldAutomount(account, spec)) mountToken(spec);
    const pullSecrets = account.imagePullSecrets as { name: string }[] | undefined;
    if ((spec.imagePullSecrets ?? []).length === 0 && pullSecrets?.length) {
      spec.imagePullSecrets = pullSecrets.map((s) => ({ name: s.name }));
    }
  },
});

function isMirrorPod(pod: KubeObject): boolean {
  return pod.metadata.annotations?.["kubernetes.io/config.mirror"] !== undefined;
}

async function lookUp(client: ReadOnlyClient, namespace: string, name: string): Promise<KubeObject | null> {
  for (let attempt = 1;; attempt++) {
    const found = await client.get({ group: "", version: "v1", resource: "serviceaccounts", namespace, name });
    if (found || attempt >= LOOKUP_ATTEMPTS) return found;
    await new Promise((resolve) => setTimeout(resolve, LOOKUP_INTERVAL_MS));
  }
}

/** The pod's own setting wins, then the account's; mounting is the default. */
function shouldAutomount(account: KubeObject, spec: ServiceAccountSpec): boolean {
  return spec.automountServiceAccountToken ?? (account.automountServiceAccountToken as boolean | undefined) ?? true;
}

/** Each init and app container not already mounting the token path gets the volume (ephemeral ones do not). */
function mountToken(spec: ServiceAccountSpec): void {
  const existing = (spec.volumes ?? []).find((volume) => volume.name.startsWith(VOLUME_PREFIX));
  const name = existing?.name ?? tokenVolumeName(VOLUME_PREFIX);
  let needed = false;
  for (const container of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
    const mounts = container.volumeMounts ?? [];
    if (mounts.some((mount) => mount.mountPath === TOKEN_MOUNT_PATH)) continue;
    container.volumeMounts = [...mounts, { name, readOnly: true, mountPath: TOKEN_MOUNT_PATH }];
    needed = true;
  }
  if (needed && !existing) spec.volumes = [...(spec.volumes ?? []), tokenVolume(name)];
}

export default serviceAccount;
