/**
 * The query parameters of get/list/watch/deletecollection, decoded and validated the way
 * kube-apiserver 1.26 does: parameter conversion errors are 400s (metav1 ParameterCodec), option
 * combinations are checked by ValidateListOptions and answered as 422 `ListOptions.meta.k8s.io "" is invalid`.
 */
import { type FieldError, newBadRequest, newInvalid } from "./errors.ts";
import { type FieldSelector, parseFieldSelector } from "./field-selector.ts";
import { goQuote } from "./go-text.ts";
import { type LabelSelector, parseLabelSelector } from "./label-selector.ts";
import { queryBool, queryInt64 } from "./query-params.ts";

export type ResourceVersionMatch = "" | "Exact" | "NotOlderThan";

export interface ListOptions {
  watch: boolean;
  allowWatchBookmarks: boolean;
  /** "" when unset; "0" means any version. */
  resourceVersion: string;
  resourceVersionMatch: ResourceVersionMatch;
  /** 0 means no limit (kube also treats negative limits as none). */
  limit: number;
  /** "" when unset. */
  continue: string;
  timeoutSeconds?: number;
  labelSelector: LabelSelector;
  fieldSelector: FieldSelector;
}

const UINT64_MAX = 2n ** 64n - 1n;

/** The numeric resourceVersion: 0 for "" and "0"; 400 as kube's storage answers for anything not a uint64. */
export function parseResourceVersion(text: string): number {
  if (text === "" || text === "0") return 0;
  const invalid = (why: string) =>
    newBadRequest(
      `invalid resource version: resourceVersion: Invalid value: ${goQuote(text)}: strconv.ParseUint: parsing ${goQuote(text)}: ${why}`,
    );
  if (!/^\d+$/.test(text)) throw invalid("invalid syntax");
  const value = BigInt(text);
  if (value > UINT64_MAX) throw invalid("value out of range");
  return Number(value);
}

/** ValidateListOptions of k8s.io/apimachinery 1.26 (pkg/apis/meta/internalversion/validation). */
function validateListOptions(options: ListOptions, rawMatch: string): FieldError[] {
  const errors: FieldError[] = [];
  if (rawMatch === "") return errors;
  const forbidden = (detail: string) => errors.push({ type: "FieldValueForbidden", field: "resourceVersionMatch", detail });
  if (options.watch) forbidden("resourceVersionMatch is forbidden for watch");
  if (options.resourceVersion === "") forbidden("resourceVersionMatch is forbidden unless resourceVersion is provided");
  if (options.continue !== "") forbidden("resourceVersionMatch is forbidden when continue is provided");
  if (rawMatch !== "Exact" && rawMatch !== "NotOlderThan") {
    errors.push({
      type: "FieldValueNotSupported",
      field: "resourceVersionMatch",
      value: rawMatch,
      detail: 'supported values: "Exact", "NotOlderThan", ""',
    });
  }
  if (rawMatch === "Exact" && options.resourceVersion === "0") {
    forbidden('resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
  }
  return errors;
}

/**
 * Decodes list options from the query. 400 for values that do not convert (numbers, selectors),
 * 422 for combinations kube forbids. Unknown parameters (e.g. 1.27's sendInitialEvents) are ignored, as in 1.26.
 */
export function parseListOptions(query: URLSearchParams): ListOptions {
  const rawMatch = query.get("resourceVersionMatch") ?? "";
  const options: ListOptions = {
    watch: queryBool(query, "watch"),
    allowWatchBookmarks: queryBool(query, "allowWatchBookmarks"),
    resourceVersion: query.get("resourceVersion") ?? "",
    resourceVersionMatch: rawMatch === "Exact" || rawMatch === "NotOlderThan" ? rawMatch : "",
    timeoutSeconds: queryInt64(query, "timeoutSeconds"),
    limit: Math.max(0, queryInt64(query, "limit") ?? 0),
    continue: query.get("continue") ?? "",
    labelSelector: parseLabelSelector(query.get("labelSelector") ?? ""),
    fieldSelector: parseFieldSelector(query.get("fieldSelector") ?? ""),
  };
  const errors = validateListOptions(options, rawMatch);
  if (errors.length > 0) throw newInvalid({ group: "meta.k8s.io", kind: "ListOptions" }, "", errors);
  return options;
}
