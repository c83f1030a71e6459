/** kube's projected service account volume (serviceaccount.TokenVolumeSource), byte for byte. */

/** Lifetime kube asks for: an hour plus 7 s, so kubelets can tell admission-made tokens apart. */
const TOKEN_EXPIRATION_SECONDS = 3607;
/** utilrand's alphabet: no vowels, no look-alike digits. */
const NAME_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

export function tokenVolumeName(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(5));
  return prefix + [...bytes].map((b) => NAME_ALPHABET[b % NAME_ALPHABET.length]).join("");
}

export function tokenVolume(name: string): { name: string; [field: string]: unknown } {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: TOKEN_EXPIRATION_SECONDS, path: "token" } },
        { configMap: { name: "kube-root-ca.crt", items: [{ key: "ca.crt", path: "ca.crt" }] } },
        { downwardAPI: { items: [{ path: "namespace", fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" } }] } },
      ],
      defaultMode: 420,
    },
  };
}
