/**
 * NodeRestriction for the other objects a kubelet writes (kube's admitPVCStatus, admitServiceAccount,
 * admitLease, admitCSINode): claim status (capacity and conditions only), service account tokens bound to a pod
 * on the node, and the Lease and CSINode named after the node.
 */
import type { KubeObject } from "../../core/api/types.ts";
import { semanticEqual } from "./_semantic-equal.ts";
import { forbidden, listerNotFound, type NodeRequest } from "./_request.ts";

const NODE_LEASE_NAMESPACE = "kube-node-lease";

export function admitClaimRequest(request: NodeRequest): void {
  const { node, attributes } = request;
  if (attributes.subresource !== "status") throw forbidden(request, "may only update PVC status");
  if (attributes.operation !== "UPDATE") throw forbidden(request, `unexpected operation "${attributes.operation}"`);
  const changed = diffOutsideStatusReport(attributes.oldObject!, attributes.object!);
  if (changed.length > 0) {
    throw forbidden(
      request,
      `node "${node}" is not allowed to update fields other than status.capacity and status.conditions: ${changed.join(", ")}`,
    );
  }
}

/**
 * The top-level fields (metadata.x, spec, status.x) that differ once resourceVersion, managedFields,
 * status.capacity and status.conditions are set aside; kube prints a Go diff, kubun names the fields.
 */
function diffOutsideStatusReport(oldClaim: KubeObject, newClaim: KubeObject): string[] {
  const comparable = (claim: KubeObject) => {
    const { resourceVersion: _rv, managedFields: _mf, ...metadata } = claim.metadata;
    const { capacity: _c, conditions: _cond, ...status } = (claim.status ?? {}) as Record<string, unknown>;
    return { metadata, spec: claim.spec, status } as Record<string, unknown>;
  };
  const before = comparable(oldClaim);
  const after = comparable(newClaim);
  const fields = (part: "metadata" | "status") =>
    Object.keys({ ...(before[part] as object), ...(after[part] as object) }).map((key) => `${part}.${key}`);
  const value = (object: Record<string, unknown>, path: string) =>
    path.split(".").reduce<unknown>((at, step) => (at as Record<string, unknown> | undefined)?.[step], object);
  return ["spec", ...fields("metadata"), ...fields("status")].filter((path) => !semanticEqual(value(before, path), value(after, path)));
}

/** TokenRequests from a node must be bound to a pod running on it (kube's admitServiceAccount). */
export async function admitServiceAccountRequest(request: NodeRequest): Promise<void> {
  const { node, attributes } = request;
  if (attributes.operation !== "CREATE" || attributes.subresource !== "token") return;
  const spec = (attributes.object!.spec ?? {}) as {
    boundObjectRef?: { apiVersion?: string; kind?: string; name?: string; uid?: string } | null;
  };
  const ref = spec.boundObjectRef;
  if (!ref || ref.apiVersion !== "v1" || ref.kind !== "Pod" || !ref.name) {
    throw forbidden(request, "node requested token not bound to a pod");
  }
  if (!ref.uid) throw forbidden(request, "node requested token with a pod binding without a uid");
  const pod = await request.client.get({ group: "", version: "v1", resource: "pods", namespace: attributes.namespace, name: ref.name });
  if (!pod) throw listerNotFound("pod", ref.name);
  if (ref.uid !== pod.metadata.uid) {
    throw forbidden(
      request,
      `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  }
  if ((pod.spec as { nodeName?: string } | undefined)?.nodeName !== node) {
    throw forbidden(request, "node requested token bound to a pod scheduled on a different node");
  }
}

export function admitLeaseRequest(request: NodeRequest): void {
  if (request.attributes.namespace !== NODE_LEASE_NAMESPACE) {
    throw forbidden(request, `can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
  }
  if (targetName(request) !== request.node) {
    throw forbidden(request, "can only access node lease with the same name as the requesting node");
  }
}

export function admitCSINodeRequest(request: NodeRequest): void {
  if (targetName(request) !== request.node) throw forbidden(request, "can only access CSINode with the same name as the requesting node");
}

/** On create kube reads the name from the proposed object; otherwise from the request. */
function targetName({ attributes }: NodeRequest): string {
  return attributes.operation === "CREATE" ? String(attributes.object?.metadata.name ?? "") : attributes.name;
}
