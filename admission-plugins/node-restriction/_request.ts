/** What each NodeRestriction rule gets: the requesting node's name, the request, and a reader of the store. */
import { admissionForbidden } from "../../core/admission/errors.ts";
import type { AdmissionAttributes } from "../../core/admission/types.ts";
import { newNotFound, type StatusError } from "../../core/api/errors.ts";
import type { ReadOnlyClient } from "../../core/api/client.ts";

export interface NodeRequest {
  node: string;
  attributes: AdmissionAttributes;
  client: ReadOnlyClient;
}

/** kube's admission.NewForbidden(a, err): `<resource> "<name>" is forbidden: <message>`. */
export function forbidden(request: NodeRequest, message: string): StatusError {
  return admissionForbidden(request.attributes, message);
}

/** The NotFound of kube's listers, which name the resource in the singular: `pod "x" not found`. */
export function listerNotFound(resource: "pod" | "node", name: string): StatusError {
  return newNotFound({ group: "", resource }, name);
}
