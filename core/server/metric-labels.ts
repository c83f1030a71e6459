/** kube's metric labels for a request (k8s.io/apiserver pkg/endpoints/metrics: CleanVerb, scope). */
import type { RequestInfoLabels } from "./metrics.ts";
import type { RequestInfo } from "./request-info.ts";

const METRIC_VERBS: Record<string, string> = {
  get: "GET",
  list: "LIST",
  watch: "WATCH",
  create: "POST",
  update: "PUT",
  patch: "PATCH",
  delete: "DELETE",
  deletecollection: "DELETECOLLECTION",
};

function scopeOf(info: RequestInfo): string {
  if (!info.isResourceRequest) return "";
  if (info.name !== "") return "resource";
  return info.namespace !== "" ? "namespace" : "cluster";
}

export function metricLabels(info: RequestInfo, request: Request, url: URL): RequestInfoLabels {
  const isApply = info.verb === "patch" && (request.headers.get("content-type") ?? "").startsWith("application/apply-patch");
  const verb = isApply ? "APPLY" : METRIC_VERBS[info.verb] ?? request.method.toUpperCase();
  const dryRun = url.search === "" ? "" : url.searchParams.getAll("dryRun").filter((v) => v !== "").join(",");
  return {
    verb,
    group: info.apiGroup,
    version: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    scope: scopeOf(info),
    dryRun,
  };
}
