/**
 * Typed API errors, built by constructors and written as a kube `Status` in one place.
 * Messages follow k8s.io/apimachinery/pkg/api/errors so clients that match on them keep working.
 */
import { goQuote } from "./go-text.ts";
import type { Status, StatusCause, StatusDetails } from "./types.ts";

export class StatusError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly details?: StatusDetails;
  readonly headers: Record<string, string>;

  constructor(code: number, reason: string, message: string, details?: StatusDetails, headers: Record<string, string> = {}) {
    super(message);
    this.name = "StatusError";
    this.code = code;
    this.reason = reason;
    this.details = details;
    this.headers = headers;
  }

  toStatus(): Status {
    const status: Status = {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: this.message,
      code: this.code,
    };
    // StatusReasonUnknown is "" and omitted, as kube's omitempty does.
    if (this.reason) status.reason = this.reason;
    if (this.details) status.details = this.details;
    return status;
  }
}

/** A resource named the way kube prints it: `pods`, `deployments.apps`. */
export interface QualifiedResource {
  group: string;
  resource: string;
}

export function qualifiedName(r: QualifiedResource): string {
  return r.group === "" ? r.resource : `${r.resource}.${r.group}`;
}

function resourceDetails(r: QualifiedResource, name: string): StatusDetails {
  const details: StatusDetails = { name, kind: r.resource };
  if (r.group !== "") details.group = r.group;
  return details;
}

export function newNotFound(r: QualifiedResource, name: string): StatusError {
  return new StatusError(404, "NotFound", `${qualifiedName(r)} "${name}" not found`, resourceDetails(r, name));
}

export function newAlreadyExists(r: QualifiedResource, name: string): StatusError {
  return new StatusError(409, "AlreadyExists", `${qualifiedName(r)} "${name}" already exists`, resourceDetails(r, name));
}

export function newConflict(r: QualifiedResource, name: string, why: string): StatusError {
  return new StatusError(
    409,
    "Conflict",
    `Operation cannot be fulfilled on ${qualifiedName(r)} "${name}": ${why}`,
    resourceDetails(r, name),
  );
}

export const OBJECT_MODIFIED = "the object has been modified; please apply your changes to the latest version and try again";

/** 422 Invalid: one cause per field error, message `Kind "name" is invalid: [a, b]`. */
export function newInvalid(kind: { group: string; kind: string }, name: string, causes: FieldError[]): StatusError {
  const joined = aggregateFieldErrors(causes);
  // StatusDetails' name, group and kind are omitempty in kube.
  const details: StatusDetails = {
    ...(name !== "" ? { name } : {}),
    ...(kind.kind !== "" ? { kind: kind.kind } : {}),
    causes: causes.map((c) => ({ reason: c.type, message: fieldErrorBody(c), field: c.field })),
  };
  if (kind.group !== "") details.group = kind.group;
  const qualified = kind.group === "" ? kind.kind : `${kind.kind}.${kind.group}`;
  return new StatusError(422, "Invalid", `${qualified} "${name}" is invalid: ${joined}`, details);
}

/** A field error as k8s.io/apimachinery/pkg/util/validation/field builds them. */
export interface FieldError {
  type:
    | "FieldValueRequired"
    | "FieldValueNotFound"
    | "FieldValueInvalid"
    | "FieldValueNotSupported"
    | "FieldValueForbidden"
    | "FieldValueDuplicate"
    | "FieldValueTooLong"
    | "FieldValueTooMany"
    | "FieldValueTypeInvalid";
  field: string;
  detail: string;
  value?: unknown;
  /** The value as Go's `%#v` prints it, for values JSON would print differently (maps, structs). */
  valueText?: string;
}

const FIELD_ERROR_WORDS: Record<FieldError["type"], string> = {
  FieldValueRequired: "Required value",
  FieldValueNotFound: "Not found",
  FieldValueInvalid: "Invalid value",
  FieldValueNotSupported: "Unsupported value",
  FieldValueForbidden: "Forbidden",
  FieldValueDuplicate: "Duplicate value",
  FieldValueTooLong: "Too long",
  FieldValueTooMany: "Too many",
  FieldValueTypeInvalid: "Invalid value",
};

/** kube's field.Error.ErrorBody(): the error without its field path (what a Status cause's message holds). */
function fieldErrorBody(e: FieldError): string {
  const words = FIELD_ERROR_WORDS[e.type];
  const showsValue = e.value !== undefined &&
    (e.type === "FieldValueInvalid" || e.type === "FieldValueNotFound" || e.type === "FieldValueNotSupported" ||
      e.type === "FieldValueDuplicate" || e.type === "FieldValueTypeInvalid" ||
      e.type === "FieldValueTooMany");
  // A string value prints as Go's %q; other values as JSON (kube's %v of simple types agrees with it).
  const value = showsValue ? `: ${e.valueText ?? (typeof e.value === "string" ? goQuote(e.value) : JSON.stringify(e.value))}` : "";
  return `${words}${value}${e.detail ? `: ${e.detail}` : ""}`;
}

/** kube's field.Error.Error(): `<field>: <body>`, as the 422 message lists them. */
function fieldErrorText(e: FieldError): string {
  return `${e.field}: ${fieldErrorBody(e)}`;
}

/** kube's ErrorList.ToAggregate().Error(): one error's text, or several in brackets. */
export function aggregateFieldErrors(errors: FieldError[]): string {
  const texts = errors.map(fieldErrorText);
  return texts.length === 1 ? texts[0]! : `[${texts.join(", ")}]`;
}

export function newBadRequest(message: string): StatusError {
  return new StatusError(400, "BadRequest", message);
}

export function newMethodNotSupported(r: QualifiedResource, action: string): StatusError {
  return new StatusError(405, "MethodNotAllowed", `${action} is not supported on resources of kind "${qualifiedName(r)}"`, {
    kind: r.resource,
    group: r.group || undefined,
  });
}

/** 410 for a resourceVersion or continue token older than the kept history. */
export function newResourceExpired(message: string): StatusError {
  return new StatusError(410, "Expired", message);
}

/**
 * kube's NewTooLargeResourceVersionError: 504 for a resourceVersion newer than anything stored, with
 * details.retryAfterSeconds and a Retry-After header when the retry is positive (NewTimeoutError).
 */
export function newTooLargeResourceVersion(requested: number, current: number, retryAfterSeconds = 1): StatusError {
  const causes = [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }];
  return new StatusError(
    504,
    "Timeout",
    `Too large resource version: ${requested}, current: ${current}`,
    retryAfterSeconds > 0 ? { causes, retryAfterSeconds } : { causes },
    retryAfterSeconds > 0 ? { "Retry-After": String(retryAfterSeconds) } : {},
  );
}

export function newUnauthorized(message = "Unauthorized"): StatusError {
  return new StatusError(401, "Unauthorized", message);
}

export function newForbidden(message: string, details?: StatusDetails): StatusError {
  return new StatusError(403, "Forbidden", message, details);
}

export function newNotAcceptable(accepted: string[]): StatusError {
  return new StatusError(406, "NotAcceptable", `only the following media types are accepted: ${accepted.join(", ")}`);
}

export function newUnsupportedMediaType(accepted: string[]): StatusError {
  return new StatusError(
    415,
    "UnsupportedMediaType",
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(", ")}`,
  );
}

export function newRequestEntityTooLarge(limitBytes: number): StatusError {
  return new StatusError(413, "RequestEntityTooLarge", `Request entity too large: limit is ${limitBytes}`);
}

export function newInternalError(message: string): StatusError {
  return new StatusError(500, "InternalError", `Internal error occurred: ${message}`, { causes: [{ message }] });
}

/** kube's ErrorToAPIStatus for an error that is not a Status: 500 with StatusReasonUnknown (""). */
export function newUnknownError(message: string): StatusError {
  return new StatusError(500, "", message);
}

/** kube's NewTooManyRequests: 429 with details.retryAfterSeconds and, when positive, a Retry-After header. */
export function newTooManyRequests(message: string, retryAfterSeconds: number, causes: StatusCause[] = []): StatusError {
  const details: StatusDetails = retryAfterSeconds > 0 ? { retryAfterSeconds } : {};
  if (causes.length > 0) details.causes = causes;
  return new StatusError(
    429,
    "TooManyRequests",
    message,
    details,
    retryAfterSeconds > 0 ? { "Retry-After": String(retryAfterSeconds) } : {},
  );
}

/** kube's NewTimeoutError: 504 `Timeout: <message>`, with details.retryAfterSeconds when positive. */
export function newTimeoutError(message: string, retryAfterSeconds = 0): StatusError {
  return new StatusError(504, "Timeout", `Timeout: ${message}`, retryAfterSeconds > 0 ? { retryAfterSeconds } : {});
}

export function newServiceUnavailable(message: string): StatusError {
  return new StatusError(503, "ServiceUnavailable", message);
}

export function isStatusError(e: unknown): e is StatusError {
  return e instanceof StatusError;
}

export function isNotFound(e: unknown): boolean {
  return isStatusError(e) && e.reason === "NotFound";
}

export function isConflict(e: unknown): boolean {
  return isStatusError(e) && e.reason === "Conflict";
}

export function isAlreadyExists(e: unknown): boolean {
  return isStatusError(e) && e.reason === "AlreadyExists";
}
