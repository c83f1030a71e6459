/**
 * How many seats a request occupies at its priority level (kube 1.26's request WorkEstimator,
 * k8s.io/apiserver pkg/util/flowcontrol/request: width.go, list_work_estimator.go, mutating_work_estimator.go,
 * config.go): a LIST by the objects it is estimated to process, a write by the watchers its event reaches, anything
 * else one seat.
 */

/** kube's WorkEstimate: seats while executing, seats held for `additionalLatencyMs` after, for the watch events. */
export interface WorkEstimate {
  initialSeats: number;
  finalSeats: number;
  additionalLatencyMs: number;
}

/** kube's DefaultWorkEstimatorConfig. */
export const MINIMUM_SEATS = 1;
export const MAXIMUM_SEATS = 10;
const OBJECTS_PER_SEAT = 100;
const WATCHES_PER_SEAT = 10;
const EVENT_ADDITIONAL_DURATION_MS = 5;

/** What the estimate looks at: the request's RequestInfo fields and its query. */
export interface EstimatedRequest {
  verb: string;
  apiGroup: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  query: URLSearchParams;
}

export interface WorkCounts {
  /** Stored objects of a group-resource ("configmaps", "deployments.apps"); undefined when not tracked. */
  objects(groupResource: string): number | undefined;
  /** Watches a write to this request's object reaches (kube's GetInterestedWatchCount). */
  interestedWatches(request: EstimatedRequest): number;
}

/** The larger of the two phases' seats, which kube's queueset reserves for the whole request (WorkEstimate.MaxSeats). */
export function maxSeats(estimate: WorkEstimate): number {
  return Math.max(estimate.initialSeats, estimate.finalSeats);
}

const ONE_SEAT: WorkEstimate = { initialSeats: MINIMUM_SEATS, finalSeats: 0, additionalLatencyMs: 0 };
const MUTATING_VERBS = new Set(["create", "update", "patch", "delete"]);

/** kube's workEstimator.estimate: list and mutating verbs have their own estimators; everything else takes one seat. */
export function estimateWork(request: EstimatedRequest, counts: WorkCounts): WorkEstimate {
  if (request.verb === "list") return estimateList(request, counts);
  if (MUTATING_VERBS.has(request.verb)) return estimateMutating(request, counts);
  return ONE_SEAT;
}

/** kube's groupResource.String(): the resource, then ".group" unless core. */
export function groupResourceKey(apiGroup: string, resource: string): string {
  return apiGroup ? `${resource}.${apiGroup}` : resource;
}

/** kube's listWorkEstimator.estimate. */
function estimateList(request: EstimatedRequest, counts: WorkCounts): WorkEstimate {
  // A LIST naming an object is served like a GET.
  if (request.name !== "") return ONE_SEAT;
  const options = listOptions(request.query);
  // Options that fail conversion make the request fail validation later: kube counts it as the widest.
  if (!options) return seats(MAXIMUM_SEATS);
  const stored = counts.objects(groupResourceKey(request.apiGroup, request.resource));
  // Not tracked (an aggregated API or an unknown type): kube assumes the least, as another server does the work.
  if (stored === undefined) return ONE_SEAT;
  const limit = options.limit > 0 && options.limit < stored ? options.limit : stored;
  let objectsToProcess: number;
  if (!listsFromStorage(options)) objectsToProcess = stored;
  else if (options.fieldSelector !== "" || options.labelSelector !== "") objectsToProcess = stored + limit;
  else objectsToProcess = 2 * limit;
  return seats(Math.min(MAXIMUM_SEATS, Math.max(MINIMUM_SEATS, Math.ceil(objectsToProcess / OBJECTS_PER_SEAT))));
}

interface ListOptions {
  resourceVersion: string;
  resourceVersionMatch: string;
  continue: string;
  limit: number;
  labelSelector: string;
  fieldSelector: string;
}

/** The ListOptions fields the estimate reads; undefined when `limit` is no integer (kube's conversion fails). */
function listOptions(query: URLSearchParams): ListOptions | undefined {
  const limitText = query.get("limit") ?? "";
  if (limitText !== "" && !/^[+-]?\d+$/.test(limitText)) return undefined;
  return {
    resourceVersion: query.get("resourceVersion") ?? "",
    resourceVersionMatch: query.get("resourceVersionMatch") ?? "",
    continue: query.get("continue") ?? "",
    limit: limitText === "" ? 0 : Number(limitText),
    labelSelector: query.get("labelSelector") ?? "",
    fieldSelector: query.get("fieldSelector") ?? "",
  };
}

/** kube's shouldListFromStorage (kept in step with the cacher's shouldDelegateList); otherwise the watch cache serves it. */
function listsFromStorage(options: ListOptions): boolean {
  const hasLimit = options.limit > 0 && options.resourceVersion !== "0";
  return options.resourceVersion === "" || options.continue !== "" || hasLimit || options.resourceVersionMatch === "Exact";
}

/** kube's mutatingWorkEstimator.estimate: one seat, plus a seat per ten watchers held briefly after the write. */
function estimateMutating(request: EstimatedRequest, counts: WorkCounts): WorkEstimate {
  // Creating a service account token sends no watch event (kube's isRequestExemptFromWatchEvents).
  if (request.resource === "serviceaccounts" && request.subresource === "token") return ONE_SEAT;
  const watches = counts.interestedWatches(request);
  if (watches < WATCHES_PER_SEAT) return ONE_SEAT;
  const wanted = Math.ceil(watches / WATCHES_PER_SEAT);
  const finalSeats = Math.min(wanted, MAXIMUM_SEATS);
  // The work (seats × duration) stays as estimated when the seats are capped: the latency grows instead.
  return { initialSeats: 1, finalSeats, additionalLatencyMs: (wanted * EVENT_ADDITIONAL_DURATION_MS) / finalSeats };
}

function seats(initialSeats: number): WorkEstimate {
  return { initialSeats, finalSeats: 0, additionalLatencyMs: 0 };
}
