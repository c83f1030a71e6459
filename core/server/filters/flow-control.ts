/**
 * Overload protection at kube's place in the chain (after impersonation, before authorization): either
 * kube's WithMaxInFlightLimit (--enable-priority-and-fairness=false) or WithPriorityAndFairness. Both answer an
 * overload with kube's tooManyRequests: 429, `Retry-After: 1` and a plain-text body. Long-running requests
 * (kube's BasicLongRunningRequestCheck) are not limited, except that APF admits a watch and holds its seat until
 * the watch has started.
 */
import type { UserInfo } from "../../auth/user.ts";
import { type Admission, type Classification, type FlowControl, NON_MUTATING_VERBS } from "../../flowcontrol/mod.ts";
import { isLongRunningRequest, type RequestInfo } from "../request-info.ts";
import { withField } from "../respond.ts";

/** Tells when a response has been written out (the listener's request connection); called as a method. */
export interface ResponseDone {
  onResponseDone?(callback: () => void): void;
}

/** The rest of the chain: `serve(state)`, one function for all requests, so none makes a closure to be served. */
export type Serve<S> = (state: S) => Response | Promise<Response>;

/**
 * Serves the request within the limits (`serve(state)`), or answers 429. `responses` (the listener's) tells when the
 * response has been written out: a seat is held until then, as kube's filters hold it until the handler returns;
 * without it the seat is freed once the response starts.
 */
export type RequestLimiter = <S>(
  request: Request,
  info: RequestInfo,
  user: UserInfo,
  serve: Serve<S>,
  state: S,
  responses?: ResponseDone,
) => Response | Promise<Response>;

/**
 * Frees `release` when the response is written out, or at once when it failed or nobody reports the end. An answer
 * served at once is handed on at once. With a classification the answer is named by it (APF's), in the same step.
 */
function servedHolding<S>(
  serve: Serve<S>,
  state: S,
  release: () => void,
  responses: ResponseDone | undefined,
  classification?: Classification,
): Response | Promise<Response> {
  let response: Response | Promise<Response>;
  try {
    response = serve(state);
  } catch (error) {
    release();
    throw error;
  }
  if (!(response instanceof Promise)) return held(response, release, responses, classification);
  return heldLater(response, release, responses, classification);
}

// The continuations of an answer that waits live apart: a function holding a closure over its locals makes a scope
// object on every call, even one answered at once.
function heldLater(
  response: Promise<Response>,
  release: () => void,
  responses: ResponseDone | undefined,
  classification: Classification | undefined,
): Promise<Response> {
  return response.then((answer) => held(answer, release, responses, classification), (error: unknown) => {
    release();
    throw error;
  });
}

function held(response: Response, release: () => void, responses: ResponseDone | undefined, classification?: Classification): Response {
  if (responses?.onResponseDone) responses.onResponseDone(release);
  else release();
  return classification ? namedResponse(response, classification) : response;
}

/** Told of each request refused with 429, for kube's apiserver_request_terminations_total. */
export type TooManyRequestsListener = (request: Request, info: RequestInfo) => void;

const SYSTEM_MASTERS = "system:masters";
/** Only a LIST's estimate reads the query, so other requests skip parsing the URL. */
const NO_QUERY = new URLSearchParams();
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
export function maxInFlightLimiter(
  limits: { readOnly: number; mutating: number },
  onTooManyRequests: TooManyRequestsListener = () => {},
): RequestLimiter | undefined {
  if (limits.readOnly === 0 && limits.mutating === 0) return undefined;
  const inFlight = { readOnly: 0, mutating: 0 };
  return async (request, info, user, serve, state, responses) => {
    if (isLongRunningRequest(info)) return await serve(state);
    const kind = NON_MUTATING_VERBS.has(info.verb) ? "readOnly" : "mutating";
    if (limits[kind] === 0) return await serve(state);
    if (inFlight[kind] >= limits[kind]) {
      if (user.groups.includes(SYSTEM_MASTERS)) return await serve(state);
      onTooManyRequests(request, info);
      return tooManyRequests();
    }
    inFlight[kind]++;
    let released = false;
    const release = () => {
      if (!released) inFlight[kind]--;
      released = true;
    };
    return await servedHolding(serve, state, release, responses);
  };
}

/** kube's WithPriorityAndFairness: classify, wait for a seat, serve; the answer names the FlowSchema and level by UID. */
export function priorityAndFairnessLimiter(
  flowControl: FlowControl,
  onTooManyRequests: TooManyRequestsListener = () => {},
): RequestLimiter {
  return (request, info, user, serve, state, responses) => {
    if (info.verb !== "watch" && isLongRunningRequest(info)) return serve(state);
    const admitted = flowControl.admit(
      {
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
        query: info.verb === "list" ? new URL(request.url).searchParams : NO_QUERY,
      },
      request,
    );
    // A request that finds a seat (or a refusal) at once, and is served at once, is answered without a promise.
    if (admitted instanceof Promise) return admittedLater(admitted, flowControl, request, info, serve, state, responses, onTooManyRequests);
    return servedAdmitted(flowControl, admitted, request, info, serve, state, responses, onTooManyRequests);
  };
}

function admittedLater<S>(
  admitted: Promise<Admission>,
  flowControl: FlowControl,
  request: Request,
  info: RequestInfo,
  serve: Serve<S>,
  state: S,
  responses: ResponseDone | undefined,
  onTooManyRequests: TooManyRequestsListener,
): Promise<Response> {
  return admitted.then((admission) => servedAdmitted(flowControl, admission, request, info, serve, state, responses, onTooManyRequests));
}

function servedAdmitted<S>(
  flowControl: FlowControl,
  admission: Admission,
  request: Request,
  info: RequestInfo,
  serve: Serve<S>,
  state: S,
  responses: ResponseDone | undefined,
  onTooManyRequests: TooManyRequestsListener,
): Response | Promise<Response> {
  if ("rejected" in admission) {
    onTooManyRequests(request, info);
    return namedResponse(tooManyRequests(), admission.classification);
  }
  if (info.verb === "watch") return servedWatch(flowControl, admission, info, serve, state, responses);
  return servedHolding(serve, state, admission.seat.release, responses, admission.classification);
}

/**
 * A watch gives its seat back once it has started (kube's watch initialization) and counts for the write work
 * estimate until it ends (kube's RegisterWatch).
 */
async function servedWatch<S>(
  flowControl: FlowControl,
  admission: Extract<Admission, { seat: unknown }>,
  info: RequestInfo,
  serve: Serve<S>,
  state: S,
  responses: ResponseDone | undefined,
): Promise<Response> {
  const forgetWatch = flowControl.registerWatch(info);
  let response: Response;
  try {
    response = await servedHolding(serve, state, admission.seat.release, undefined);
  } catch (error) {
    forgetWatch();
    throw error;
  }
  if (responses?.onResponseDone) responses.onResponseDone(forgetWatch);
  else forgetWatch();
  return namedResponse(response, admission.classification);
}

/**
 * kube's setResponseHeaders: the answer carries the UIDs (not the names) of the FlowSchema and priority level, on a
 * served request (execute) and on a refusal alike, exempt ones included.
 */
function namedResponse(response: Response, classification: Classification): Response {
  return withField(
    withField(response, FLOW_SCHEMA_UID_HEADER, classification.flowSchemaUid),
    PRIORITY_LEVEL_UID_HEADER,
    classification.priorityLevelUid,
  );
}
