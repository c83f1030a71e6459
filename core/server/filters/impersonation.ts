/**
 * The impersonation step (spec 5.8; k8s.io/apiserver endpoints/filters/impersonation.go), between
 * authentication and authorization: each Impersonate-* header is checked as verb `impersonate` for the
 * requester, then the request runs as the impersonated user.
 */
import { isDNS1123Label, isDNS1123Subdomain } from "../../api/names.ts";
import { type Attributes, type Authorizer, newAuthorizationForbidden } from "../../auth/authorizer.ts";
import { ANONYMOUS_USER, AUTHENTICATED_GROUP, UNAUTHENTICATED_GROUP, type UserInfo } from "../../auth/user.ts";

const USER_HEADER = "impersonate-user";
const GROUP_HEADER = "impersonate-group";
const UID_HEADER = "impersonate-uid";
const EXTRA_PREFIX = "impersonate-extra-";
const AUTHENTICATION_GROUP = "authentication.k8s.io";
const SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

/** One thing to impersonate, shaped like the v1.ObjectReference kube builds (its %v form is in an error message). */
interface ImpersonationRequest {
  kind: "User" | "ServiceAccount" | "Group" | "UserExtra" | "UID";
  namespace: string;
  name: string;
  apiVersion: string;
  /** The extra key, for UserExtra. */
  fieldPath: string;
}

/** Repeated header lines arrive joined by ", " (the Fetch Headers rule), so they are split back. */
/** What headerValues gives for an absent header: never written, so shared rather than made per request. */
const NO_VALUES: readonly string[] = Object.freeze([]);

function headerValues(headers: Headers, name: string): readonly string[] {
  const joined = headers.get(name);
  return joined === null || joined === "" ? NO_VALUES : joined.split(", ");
}

function decodeExtraKey(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded; // kept as sent, as kube records malformed keys too
  }
}

function serviceAccountOf(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_PREFIX.length).split(":");
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (isDNS1123Label(namespace).length > 0 || isDNS1123Subdomain(name).length > 0) return undefined;
  return { namespace, name };
}

function request(kind: ImpersonationRequest["kind"], name: string, more: Partial<ImpersonationRequest> = {}): ImpersonationRequest {
  return { kind, namespace: "", name, apiVersion: "", fieldPath: "", ...more };
}

/** What impersonationRequests gives for a request with no Impersonate-* field: never written, so shared. */
const NO_REQUESTS: ImpersonationRequest[] = [];

/** Every field named here starts so: a request with none of them impersonates nobody. */
const IMPERSONATE_PREFIX = "impersonate-";

function impersonationRequests(headers: Headers): ImpersonationRequest[] {
  // kube walks every header for the extras' prefix (buildImpersonationRequests). By name, reading no value: forEach
  // called back into JavaScript with each field's value, which cost more (4 fields: ~330 → ~200 ns under Bun). The
  // same walk tells whether any Impersonate-* field came, so the common request reads no field by name.
  let impersonates = false;
  for (const name of headers.keys()) {
    if (name.startsWith(IMPERSONATE_PREFIX)) {
      impersonates = true;
      break;
    }
  }
  if (!impersonates) return NO_REQUESTS;
  const requests: ImpersonationRequest[] = [];
  const username = headers.get(USER_HEADER) ?? "";
  if (username !== "") {
    const account = serviceAccountOf(username);
    requests.push(account ? request("ServiceAccount", account.name, { namespace: account.namespace }) : request("User", username));
  }
  for (const group of headerValues(headers, GROUP_HEADER)) requests.push(request("Group", group));
  for (const name of headers.keys()) {
    if (name.startsWith(EXTRA_PREFIX)) addExtraRequests(requests, headers.get(name) ?? "", name);
  }
  const uid = headers.get(UID_HEADER) ?? "";
  if (uid !== "") requests.push(request("UID", uid, { apiVersion: `${AUTHENTICATION_GROUP}/v1` }));
  return requests;
}

/** An Impersonate-Extra-* field's values, each a request. */
function addExtraRequests(requests: ImpersonationRequest[], value: string, name: string): void {
  if (value === "") return;
  const key = decodeExtraKey(name.slice(EXTRA_PREFIX.length));
  for (const one of value.split(", ")) {
    requests.push(request("UserExtra", one, { apiVersion: `${AUTHENTICATION_GROUP}/v1`, fieldPath: key }));
  }
}

const RESOURCES: Record<ImpersonationRequest["kind"], string> = {
  User: "users",
  ServiceAccount: "serviceaccounts",
  Group: "groups",
  UserExtra: "userextras",
  UID: "uids",
};

function attributesFor(requestor: UserInfo, target: ImpersonationRequest): Attributes {
  const [apiGroup, apiVersion] = target.apiVersion === "" ? ["", ""] : target.apiVersion.split("/") as [string, string];
  return {
    user: requestor,
    verb: "impersonate",
    isResourceRequest: true,
    path: "",
    apiGroup,
    apiVersion,
    namespace: target.namespace,
    resource: RESOURCES[target.kind],
    subresource: target.kind === "UserExtra" ? target.fieldPath : "",
    name: target.name,
  };
}

/** kube answers this with http.Error: a plain-text 500 naming the request and Go's %v of the references. */
function missingUserResponse(requestUri: string, requests: ImpersonationRequest[]): Response {
  const references = requests.map((r) => `{${[r.kind, r.namespace, r.name, "", r.apiVersion, "", r.fieldPath].join(" ")}}`).join(" ");
  const text = `Internal Server Error: ${JSON.stringify(requestUri)}: requested [${references}] without impersonating a user`;
  const sanitized = text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  return new Response(`${sanitized}\n`, {
    status: 500,
    headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" },
  });
}

/**
 * The user the request runs as: the requester when no Impersonate-* header is present, else the impersonated
 * user once every part was allowed. A denial throws kube's 403; headers that need Impersonate-User without it
 * give kube's plain-text 500, returned as the Response to send.
 */
export function impersonateRequest(
  authorizer: Authorizer,
  request: Request,
  requestor: UserInfo,
): UserInfo | Response | Promise<UserInfo | Response> {
  const requests = impersonationRequests(request.headers);
  // The common request impersonates nobody: answered at once, with no promise.
  if (requests.length === 0) return requestor;
  if (!requests.some((r) => r.kind === "User" || r.kind === "ServiceAccount")) {
    const url = new URL(request.url);
    return missingUserResponse(url.pathname + url.search, requests);
  }
  return impersonated(authorizer, request, requestor, requests);
}

async function impersonated(
  authorizer: Authorizer,
  request: Request,
  requestor: UserInfo,
  requests: ImpersonationRequest[],
): Promise<UserInfo> {
  const groupsGiven = headerValues(request.headers, GROUP_HEADER).length > 0;
  let username = "";
  let uid = "";
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const target of requests) {
    const attributes = attributesFor(requestor, target);
    const { decision, reason } = await authorizer.authorize(attributes);
    if (decision !== "Allow") throw newAuthorizationForbidden(attributes, reason);
    if (target.kind === "User") username = target.name;
    if (target.kind === "ServiceAccount") {
      username = `${SERVICE_ACCOUNT_PREFIX}${target.namespace}:${target.name}`;
      if (!groupsGiven) groups = ["system:serviceaccounts", `system:serviceaccounts:${target.namespace}`];
    }
    if (target.kind === "Group") groups.push(target.name);
    if (target.kind === "UserExtra") (extra[target.fieldPath] ??= []).push(target.name);
    if (target.kind === "UID") uid = target.name;
  }
  const impersonated: UserInfo = { username, groups: withStandardGroup(username, groups) };
  if (uid !== "") impersonated.uid = uid;
  if (Object.keys(extra).length > 0) impersonated.extra = extra;
  return impersonated;
}

/** system:authenticated for a named user unless a group says otherwise; system:unauthenticated for anonymous. */
function withStandardGroup(username: string, groups: string[]): string[] {
  if (username === ANONYMOUS_USER) return groups.includes(UNAUTHENTICATED_GROUP) ? groups : [...groups, UNAUTHENTICATED_GROUP];
  return groups.includes(AUTHENTICATED_GROUP) || groups.includes(UNAUTHENTICATED_GROUP) ? groups : [...groups, AUTHENTICATED_GROUP];
}
