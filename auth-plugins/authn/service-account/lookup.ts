/**
 * Revocation by deletion (kube's validator and legacyValidator): a bound token is valid only while its
 * ServiceAccount (same uid) and its bound Pod or Secret exist; a legacy token only while its Secret exists and
 * still holds the same token.
 */
import type { KubeObject, ReadOnlyClient } from "../../../plugins/sdk.ts";
import type { ObjectRef, ServiceAccountClaims } from "../../../core/auth/service-account/claims.ts";

/** Objects deleted more than this long ago (finalizers pending) no longer back a token (jwt.DefaultLeeway). */
const LEEWAY_MS = 60_000;

function isDeleted(object: KubeObject, now: number): boolean {
  const since = object.metadata.deletionTimestamp;
  return since !== undefined && Date.parse(since) < now - LEEWAY_MS;
}

async function checkObject(
  client: ReadOnlyClient,
  resource: string,
  namespace: string,
  ref: ObjectRef,
  now: number,
): Promise<{ problem?: string; object?: KubeObject }> {
  const object = await client.get({ group: "", version: "v1", resource, namespace, name: ref.name });
  const kind = resource === "serviceaccounts" ? "service account" : resource.slice(0, -1);
  if (!object) return { problem: `${resource} "${ref.name}" not found` };
  if (isDeleted(object, now)) return { problem: `${kind} ${namespace}/${ref.name} has been deleted` };
  if (ref.uid && object.metadata.uid !== ref.uid) {
    return { problem: `${kind} UID (${object.metadata.uid ?? ""}) does not match claim (${ref.uid})` };
  }
  return { object };
}

function decodedToken(secret: KubeObject): string {
  const data = (secret as { data?: Record<string, string> }).data ?? {};
  return data.token === undefined ? "" : Buffer.from(data.token, "base64").toString("utf8");
}

/** Why the token's objects no longer back it, or undefined when they still do. */
export async function revocationProblem(
  client: ReadOnlyClient,
  claims: ServiceAccountClaims,
  token: string,
  now = Date.now(),
): Promise<string | undefined> {
  const account = await checkObject(client, "serviceaccounts", claims.namespace, claims.serviceAccount, now);
  if (account.problem) return account.problem;
  if (claims.pod) {
    const pod = await checkObject(client, "pods", claims.namespace, claims.pod, now);
    if (pod.problem) return pod.problem;
  }
  if (claims.secret) {
    const secret = await checkObject(client, "secrets", claims.namespace, claims.secret, now);
    if (secret.problem) return secret.problem;
    if (claims.legacy && decodedToken(secret.object!) !== token) return "token does not match server's copy";
  }
  return undefined;
}
