/** What each NodeRestriction rule gets: the requesting node's name, the request, and a reader of the store. */
import { admissionForbidden } from "../../core/admission/errors.ts";
import type { AdmissionAttributes } from "../../core/admission/types.ts";
import type { StatusError } from "../../core/api/errors.ts";
import type { ReadOnlyClient } from "../../core/auth/read-only-client.ts";

export interface NodeRequest {
  node: string;
  attributes: AdmissionAttributes;
  client: ReadOnlyClient;
}

/** kube's admission.NewForbidden(a, err): `<resource> "<name>" is forbidden: <message>`. */
export function forbidden(request: NodeRequest, message: string): StatusError {
  return admissionForbidden(request.attributes, message);
}
