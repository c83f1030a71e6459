/**
 * Overload protection at kube's place in the chain (after impersonation, before authorization): either
 * kube's WithMaxInFlightLimit (--enable-priority-and-fairness=false) or WithPriorityAndFairness. Both answer an
 * overload with kube's tooManyRequests: 429, `Retry-After: 1` and a plain-text body. Long-running requests
 * (kube's BasicLongRunningRequestCheck) are not limited, except that APF admits a watch and holds its seat until
 * the watch has started.
 */
import type { UserInfo } from "../../auth/user.ts";
import type { FlowControl } from "../../flowcontrol/mod.ts";
import { isLongRunningRequest, type RequestInfo } from "../request-info.ts";
import { withHeader } from "../respond.ts";

export type RequestLimiter = (request: Request, info: RequestInfo, user: UserInfo, serve: () => Promise<Response>) => Promise<Response>;

const SYSTEM_MASTERS = "system:masters";
/** kube's nonMutatingRequestVerbs. */
const READ_ONLY_VERBS = new Set(["get", "list", "watch"]);
export const FLOW_SCHEMA_UID_HEADER = "X-Kubernetes-PF-FlowSchema-UID";
export const PRIORITY_LEVEL_UID_HEADER = "X-Kubernetes-PF-PriorityLevel-UID";

/** kube's tooManyRequests (maxinflight.go), written through Go's http.Error. */
export function tooManyRequests(): Response {
  return new Response("Too many requests, please try again later.\n", {
    status: 429,
    headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff", "Retry-After": "1" },
  });
}

/**
 * kube's WithMaxInFlightLimit: read-only (get, list, watch) and mutating requests each have their own limit (0: no
 * limit); a request over its limit is refused unless its user is in system:masters, which is always served.
 */
export function maxInFlightLimiter(limits: { readOnly: number; mutating: number }): RequestLimiter | undefined {
  if (limits.readOnly === 0 && limits.mutating === 0) return undefined;
  const inFlight = { readOnly: 0, mutating: 0 };
  return async (_request, info, user, serve) => {
    if (isLongRunningRequest(info)) return await serve();
    const kind = READ_ONLY_VERBS.has(info.verb) ? "readOnly" : "mutating";
    if (limits[kind] === 0) return await serve();
    if (inFlight[kind] >= limits[kind]) return user.groups.includes(SYSTEM_MASTERS) ? await serve() : tooManyRequests();
    inFlight[kind]++;
    try {
      return await serve();
    } finally {
      inFlight[kind]--;
    }
  };
}

/** kube's WithPriorityAndFairness: classify, wait for a seat, serve; the answer names the FlowSchema and level by UID. */
export function priorityAndFairnessLimiter(flowControl: FlowControl): RequestLimiter {
  return async (request, info, user, serve) => {
    if (info.verb !== "watch" && isLongRunningRequest(info)) return await serve();
    const admission = await flowControl.admit({
      username: user.username,
      groups: user.groups,
      isResourceRequest: info.isResourceRequest,
      verb: info.verb,
      apiGroup: info.apiGroup,
      apiVersion: info.apiGroup ? `${info.apiGroup}/${info.apiVersion}` : info.apiVersion,
      resource: info.resource,
      subresource: info.subresource,
      namespace: info.namespace,
      name: info.name,
      path: info.path,
    }, () => request.signal);
    let response: Response;
    if ("rejected" in admission) {
      response = tooManyRequests();
    } else {
      try {
        response = await serve();
      } finally {
        admission.seat.release();
      }
    }
    response = withHeader(response, FLOW_SCHEMA_UID_HEADER, admission.classification.flowSchemaUid);
    return withHeader(response, PRIORITY_LEVEL_UID_HEADER, admission.classification.priorityLevelUid);
  };
}
