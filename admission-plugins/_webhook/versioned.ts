/**
 * A webhook matched under matchPolicy Equivalent sees the object in the version it registered for, and its patch
 * applies there (kube's VersionedAttributes): objects convert to the invocation's version and back.
 */
import type { AdmissionAttributes } from "../../core/admission/types.ts";
import type { KubeObject } from "../../core/api/types.ts";
import { convertToVersion } from "../../core/registry/conversion/mod.ts";
import type { Invocation } from "./invocation.ts";

type Request = Pick<AdmissionAttributes, "resource">;

export function toInvokedVersion(obj: KubeObject | null, invocation: Invocation, attributes: Request): KubeObject | null {
  return obj && convertToVersion(obj, attributes.resource, invocation.resource);
}

export function fromInvokedVersion(obj: KubeObject, invocation: Invocation, attributes: Request): KubeObject {
  return convertToVersion(obj, invocation.resource, attributes.resource);
}
