/**
 * PodLogOptions from a pods/log query, checked as kube's ValidatePodLogOptions (pkg/apis/core/validation): 422
 * PodLogOptions "p" is invalid for a negative tailLines, limitBytes or sinceSeconds below 1, or both sinceTime
 * and sinceSeconds.
 */
import { type FieldError, newBadRequest, newInvalid } from "../../api/errors.ts";

export interface PodLogOptions {
  container: string;
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  tailLines?: number;
  limitBytes?: number;
  sinceSeconds?: number;
  /** Milliseconds since the epoch. */
  sinceTime?: number;
}

function parseBool(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  if (value === null || value === "") return false;
  if (["true", "1", "t", "T", "TRUE", "True"].includes(value)) return true;
  if (["false", "0", "f", "F", "FALSE", "False"].includes(value)) return false;
  // strconv.ParseBool's error, as kube's query parameter conversion reports it.
  throw newBadRequest(`strconv.ParseBool: parsing "${value}": invalid syntax`);
}

function parseInt64(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null || value === "") return undefined;
  if (!/^[+-]?\d+$/.test(value)) throw newBadRequest(`strconv.ParseInt: parsing "${value}": invalid syntax`);
  return Number.parseInt(value, 10);
}

function parseTime(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null || value === "") return undefined;
  const at = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(at)) {
    throw newBadRequest(`parsing time "${value}" as "2006-01-02T15:04:05Z07:00": cannot parse "${value}" as "2006"`);
  }
  return at;
}

export function parsePodLogOptions(query: URLSearchParams, podName: string): PodLogOptions {
  const options: PodLogOptions = {
    container: query.get("container") ?? "",
    follow: parseBool(query, "follow"),
    previous: parseBool(query, "previous"),
    timestamps: parseBool(query, "timestamps"),
    tailLines: parseInt64(query, "tailLines"),
    limitBytes: parseInt64(query, "limitBytes"),
    sinceSeconds: parseInt64(query, "sinceSeconds"),
    sinceTime: parseTime(query, "sinceTime"),
  };
  const errors: FieldError[] = [];
  if (options.tailLines !== undefined && options.tailLines < 0) {
    errors.push({ type: "FieldValueInvalid", field: "tailLines", value: options.tailLines, detail: "must be greater than or equal to 0" });
  }
  if (options.limitBytes !== undefined && options.limitBytes < 1) {
    errors.push({ type: "FieldValueInvalid", field: "limitBytes", value: options.limitBytes, detail: "must be greater than 0" });
  }
  if (options.sinceSeconds !== undefined && options.sinceTime !== undefined) {
    errors.push({ type: "FieldValueForbidden", field: "", detail: "at most one of `sinceTime` or `sinceSeconds` may be specified" });
  } else if (options.sinceSeconds !== undefined && options.sinceSeconds < 1) {
    errors.push({ type: "FieldValueInvalid", field: "sinceSeconds", value: options.sinceSeconds, detail: "must be greater than 0" });
  }
  if (errors.length > 0) throw newInvalid({ group: "", kind: "PodLogOptions" }, podName, errors);
  return options;
}
