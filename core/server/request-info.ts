/**
 * Classifies a request path the way k8s.io/apiserver's RequestInfoFactory does: resource requests under
 * /api and /apis get verb, group, version, namespace, resource, name and subresource; anything else is a
 * non-resource request whose verb is the lower-cased HTTP method.
 */
import { queryBool } from "../api/query-params.ts";

export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  /** Kube API verb: get, list, watch, create, update, patch, delete, deletecollection; or the HTTP method for non-resource paths. */
  verb: string;
  apiPrefix: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** Path segments after the group/version (without the legacy "watch" marker). */
  parts: string[];
}

/** kube-apiserver's long-running check (BasicLongRunningRequestCheck): these verbs and subresources. */
const LONG_RUNNING_VERBS = new Set(["watch", "proxy"]);
const LONG_RUNNING_SUBRESOURCES = new Set(["attach", "exec", "proxy", "log", "portforward"]);

export function isLongRunningRequest(info: RequestInfo): boolean {
  return LONG_RUNNING_VERBS.has(info.verb) || (info.isResourceRequest && LONG_RUNNING_SUBRESOURCES.has(info.subresource));
}

/** strings.ToLower of the usual methods, made once rather than a new string per request. */
const LOWER_CASE_METHODS: ReadonlyMap<string, string> = new Map(
  ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].map((method) => [method, method.toLowerCase()]),
);
const SPECIAL_VERBS_NO_SUBRESOURCES = new Set(["proxy"]);
const NAMESPACE_SUBRESOURCES = new Set(["status", "finalize"]);

/** `path` is the request's path as sent (kube does not remove "." and ".." segments); the URL's by default. */
export function parseRequestInfo(method: string, url: URL, path = url.pathname): RequestInfo {
  const info: RequestInfo = {
    isResourceRequest: false,
    path,
    verb: LOWER_CASE_METHODS.get(method) ?? method.toLowerCase(),
    apiPrefix: "",
    apiGroup: "",
    apiVersion: "",
    namespace: "",
    resource: "",
    subresource: "",
    name: "",
    parts: [],
  };
  const segments = splitPath(path);
  if (segments.length < 2) return info;
  const prefix = segments[0]!;
  if (prefix !== "api" && prefix !== "apis") return info;
  info.apiPrefix = prefix;
  // The index of the next segment to read, rather than a copy of the rest per step (this runs on every request).
  let next = 1;
  if (prefix === "apis") {
    if (segments.length - next < 2) return info;
    info.apiGroup = segments[next++]!;
  }
  info.apiVersion = segments[next++]!;
  if (next === segments.length) return info;

  info.isResourceRequest = true;
  let legacyWatch = false;
  if (segments[next] === "watch") {
    legacyWatch = true;
    next++;
  } else if (SPECIAL_VERBS_NO_SUBRESOURCES.has(segments[next]!)) {
    info.verb = segments[next++]!;
  } else {
    info.verb = verbForMethod(method);
  }
  const parts: string[] = [];
  // Only an escaped path has segments to decode: one scan of it rather than one per segment.
  const escaped = path.includes("%");
  for (; next < segments.length; next++) parts.push(escaped ? decodeSegment(segments[next]!) : segments[next]!);
  let resourceParts = parts;
  if (parts[0] === "namespaces" && parts.length > 1) {
    info.namespace = parts[1]!;
    // /namespaces/<ns>/<resource>... addresses a namespaced resource; /namespaces/<ns>[/status|/finalize] the namespace itself.
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]!)) resourceParts = parts.slice(2);
  }
  info.parts = resourceParts;
  [info.resource = "", info.name = "", info.subresource = ""] = resourceParts;

  if (legacyWatch) {
    info.verb = "watch";
  } else if (info.verb === "get" && info.name === "") {
    // The watch parameter is a ListOptions bool, decoded as the handler will decode it.
    info.verb = queryBool(url.searchParams, "watch") ? "watch" : "list";
  } else if (info.verb === "delete" && info.name === "") {
    info.verb = "deletecollection";
  }
  return info;
}

/**
 * kube's splitPath: the slashes at either end go, those inside stay, so `namespaces/default//configmaps` has an
 * empty resource segment (which no route serves) rather than naming configmaps.
 */
export function splitPath(path: string): string[] {
  let start = 0;
  let end = path.length;
  while (start < end && path.charCodeAt(start) === SLASH) start++;
  while (end > start && path.charCodeAt(end - 1) === SLASH) end--;
  if (start === end) return [];
  // Each slash cut at either end is one empty segment of the whole path's split: splitting a cut copy cost as much
  // again as the split (this runs on every request).
  const segments = path.split("/");
  return start === 0 && end === path.length ? segments : segments.slice(start, segments.length - (path.length - end));
}

const SLASH = 47;

/** Whether the path gave an empty namespace (`namespaces//configmaps/x`) rather than none (`configmaps/x`). */
export function namesEmptyNamespace(info: RequestInfo): boolean {
  const segments = splitPath(info.path);
  const first = info.apiPrefix === "apis" ? 3 : 2;
  return info.namespace === "" && segments[first] === "namespaces" && segments[first + 1] === "";
}

/** Whether the path has the deprecated `watch/` segment before the resource (kube's WATCH and WATCHLIST routes). */
export function isWatchPrefixed(info: RequestInfo): boolean {
  const segments = splitPath(info.path);
  return segments[info.apiPrefix === "apis" ? 3 : 2] === "watch";
}

function verbForMethod(method: string): string {
  switch (method.toUpperCase()) {
    case "POST":
      return "create";
    case "GET":
    case "HEAD":
      return "get";
    case "PUT":
      return "update";
    case "PATCH":
      return "patch";
    case "DELETE":
      return "delete";
    default:
      return method.toLowerCase();
  }
}

function decodeSegment(segment: string): string {
  // decodeURIComponent changes nothing but %XX escapes.
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
