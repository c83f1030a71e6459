/** How admission refusals become Status errors (kube's admission.NewForbidden and friends). */
import { newBadRequest, newForbidden, newInternalError, qualifiedName, StatusError } from "../api/errors.ts";
import { classifyThrown } from "./sdk/mod.ts";
import type { AdmissionAttributes } from "./types.ts";

const REASON_BY_CODE: Record<number, string> = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  404: "NotFound",
  405: "MethodNotAllowed",
  409: "Conflict",
  410: "Expired",
  422: "Invalid",
  429: "TooManyRequests",
  500: "InternalError",
  503: "ServiceUnavailable",
  504: "Timeout",
};

/** `pods "x" is forbidden: <message>`, kube's wording for an admission denial. */
export function admissionForbidden(attributes: Pick<AdmissionAttributes, "resource" | "name">, message: string): StatusError {
  const resource = qualifiedName({ group: attributes.resource.group, resource: attributes.resource.resource });
  return newForbidden(`${resource} "${attributes.name}" is forbidden: ${message}`, {
    name: attributes.name,
    group: attributes.resource.group || undefined,
    kind: attributes.resource.resource,
  });
}

export function dryRunUnsupported(pluginName: string): StatusError {
  return newBadRequest(`admission plugin "${pluginName}" has side effects and does not support dry run`);
}

/**
 * What a plugin threw, as the Status the client gets: a StatusError as is; `{code, message, reason?}` with that
 * code; a plain Error as a 403 denial with its message; a programming error or anything else as a 500.
 */
export function toAdmissionError(thrown: unknown, attributes: AdmissionAttributes, pluginName: string): StatusError {
  if (thrown instanceof StatusError) return thrown;
  const refusal = classifyThrown(thrown);
  switch (refusal.kind) {
    case "coded": {
      const reason = refusal.reason ?? REASON_BY_CODE[refusal.code] ?? (refusal.code >= 500 ? "InternalError" : "BadRequest");
      return new StatusError(refusal.code, reason, refusal.message);
    }
    case "forbidden":
      return admissionForbidden(attributes, refusal.message);
    case "failed":
      return newInternalError(`admission plugin "${pluginName}" failed: ${refusal.message}`);
  }
}
