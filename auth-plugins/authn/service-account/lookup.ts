/**
 * Revocation by deletion (kube's validator.Validate in pkg/serviceaccount/claims.go and legacyValidator.Validate in
 * legacy.go): a bound token is valid only while its ServiceAccount (same uid) and its bound Pod or Secret exist; a
 * legacy token only while its Secret exists and still holds the same token. Checked on every request.
 */
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

/** One object a token names, in the order kube's validator reads them. */
interface Backing {
  read: ObjectReference;
  claimed: ObjectRef;
  /** How kube's messages name its kind. */
  kind: string;
}

/**
 * The objects behind each claims object: claims are kept per signed token (verify.ts), so a client sending one token
 * reads its objects through the same references on every request instead of new ones.
 */
const backingsOf = new WeakMap<ServiceAccountClaims, Backing[]>();

function backings(claims: ServiceAccountClaims): Backing[] {
  let found = backingsOf.get(claims);
  if (!found) backingsOf.set(claims, found = backingsNamed(claims));
  return found;
}

function backingsNamed(claims: ServiceAccountClaims): Backing[] {
  const backing = (resource: string, kind: string, claimed: ObjectRef): Backing => ({
    read: { group: "", version: "v1", resource, namespace: claims.namespace, name: claimed.name },
    claimed,
    kind,
  });
  const named = [backing("serviceaccounts", "service account", claims.serviceAccount)];
  if (claims.pod) named.push(backing("pods", "pod", claims.pod));
  if (claims.secret) named.push(backing("secrets", "secret", claims.secret));
  return named;
}

function objectProblem(object: KubeObject | null, backing: Backing, now: number): string | undefined {
  const { read, claimed, kind } = backing;
  if (!object) return `${read.resource} "${claimed.name}" not found`;
  if (isDeleted(object, now)) return `${kind} ${read.namespace}/${claimed.name} has been deleted`;
  if (claimed.uid && object.metadata.uid !== claimed.uid) {
    return `${kind} UID (${object.metadata.uid ?? ""}) does not match claim (${claimed.uid})`;
  }
  return undefined;
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
  now: number,
  from: number,
): Problem | Promise<Problem> {
  const objects = backings(claims);
  for (let index = from; index < objects.length; index++) {
    const backing = objects[index]!;
    const read = client.get(backing.read);
    if (read instanceof Promise) return problemOnceRead(read, client, claims, token, now, index);
    const problem = backedBy(read, backing, claims, token, now);
    if (problem) return problem;
  }
  return undefined;
}

/** Apart from revocationProblem, whose scope then holds nothing a closure captures (a scope per call otherwise). */
function problemOnceRead(
  read: Promise<KubeObject | null>,
  client: ObjectReader,
  claims: ServiceAccountClaims,
  token: string,
  now: number,
  index: number,
): Promise<Problem> {
  const backing = backings(claims)[index]!;
  return read.then((object) => backedBy(object, backing, claims, token, now) ?? revocationProblem(client, claims, token, now, index + 1));
}

function backedBy(object: KubeObject | null, backing: Backing, claims: ServiceAccountClaims, token: string, now: number): Problem {
  const problem = objectProblem(object, backing, now);
  if (problem || !claims.legacy || backing.read.resource !== "secrets") return problem;
  return decodedToken(object!) !== token ? "token does not match server's copy" : undefined;
}
