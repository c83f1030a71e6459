/**
 * Revocation by deletion (kube's validator and legacyValidator): a bound token is valid only while its
 * ServiceAccount (same uid) and its bound Pod or Secret exist; a legacy token only while its Secret exists and
 * still holds the same token.
 */
import { thenOrNow } from "../../../core/api/then-or-now.ts";
import type { KubeObject, ObjectReference } from "../../../plugins/sdk.ts";
import type { ObjectRef, ServiceAccountClaims } from "../../../core/auth/service-account/claims.ts";

/** Objects deleted more than this long ago (finalizers pending) no longer back a token (jwt.DefaultLeeway). */
const LEEWAY_MS = 60_000;

function isDeleted(object: KubeObject, now: number): boolean {
  const since = object.metadata.deletionTimestamp;
  return since !== undefined && Date.parse(since) < now - LEEWAY_MS;
}

/** What a lookup reads objects through: a plain value when it has the object at hand (account-cache.ts). */
export interface ObjectReader {
  get(ref: ObjectReference): KubeObject | null | Promise<KubeObject | null>;
}

interface Checked {
  problem?: string;
  object?: KubeObject;
}

function checkObject(
  client: ObjectReader,
  resource: string,
  namespace: string,
  ref: ObjectRef,
  now: number,
): Checked | Promise<Checked> {
  const read = client.get({ group: "", version: "v1", resource, namespace, name: ref.name });
  return thenOrNow(read, (object): Checked => {
    const kind = resource === "serviceaccounts" ? "service account" : resource.slice(0, -1);
    if (!object) return { problem: `${resource} "${ref.name}" not found` };
    if (isDeleted(object, now)) return { problem: `${kind} ${namespace}/${ref.name} has been deleted` };
    if (ref.uid && object.metadata.uid !== ref.uid) {
      return { problem: `${kind} UID (${object.metadata.uid ?? ""}) does not match claim (${ref.uid})` };
    }
    return { object };
  });
}

function decodedToken(secret: KubeObject): string {
  const data = (secret as { data?: Record<string, string> }).data ?? {};
  return data.token === undefined ? "" : Buffer.from(data.token, "base64").toString("utf8");
}

type Problem = string | undefined;

/**
 * Why the token's objects no longer back it, or undefined when they still do: the ServiceAccount, then the bound Pod,
 * then the Secret, as kube's validator checks them. At once when each is read without waiting.
 */
export function revocationProblem(
  client: ObjectReader,
  claims: ServiceAccountClaims,
  token: string,
  now = Date.now(),
): Problem | Promise<Problem> {
  const account = checkObject(client, "serviceaccounts", claims.namespace, claims.serviceAccount, now);
  return thenOrNow(account, (checked) => checked.problem ?? podProblem(client, claims, token, now));
}

function podProblem(client: ObjectReader, claims: ServiceAccountClaims, token: string, now: number): Problem | Promise<Problem> {
  if (!claims.pod) return secretProblem(client, claims, token, now);
  const pod = checkObject(client, "pods", claims.namespace, claims.pod, now);
  return thenOrNow(pod, (checked) => checked.problem ?? secretProblem(client, claims, token, now));
}

function secretProblem(client: ObjectReader, claims: ServiceAccountClaims, token: string, now: number): Problem | Promise<Problem> {
  if (!claims.secret) return undefined;
  const secret = checkObject(client, "secrets", claims.namespace, claims.secret, now);
  return thenOrNow(secret, (checked) => {
    if (checked.problem) return checked.problem;
    return claims.legacy && decodedToken(checked.object!) !== token ? "token does not match server's copy" : undefined;
  });
}
