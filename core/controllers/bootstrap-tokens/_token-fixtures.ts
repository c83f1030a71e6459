/** Bootstrap token Secrets for the token controllers' tests. */
import type { KubeObject } from "../../api/types.ts";

export function tokenSecret(id: string, secret: string, extra: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: `bootstrap-token-${id}`, namespace: "kube-system" },
    type: "bootstrap.kubernetes.io/token",
    stringData: { "token-id": id, "token-secret": secret, ...extra },
  };
}
