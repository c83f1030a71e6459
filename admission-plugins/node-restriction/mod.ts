/**
 * NodeRestriction: a kubelet (user system:node:<name> in group system:nodes) may change only its own Node and
 * only pods bound to it: mirror pods on create, status on update, and deletes.
 */
import { admissionForbidden } from "../../core/admission/errors.ts";
import type { BuiltInAdmissionFactory, ValidationAttributes } from "../../core/admission/types.ts";

const NODE_PREFIX = "system:node:";
const MIRROR_ANNOTATION = "kubernetes.io/config.mirror";

const nodeRestriction: BuiltInAdmissionFactory = () => ({
  name: "NodeRestriction",
  handles: (a) => nodeNameOf(a) !== undefined && a.resource.group === "" && (a.resource.resource === "nodes" || a.resource.resource === "pods"),
  validate(attributes) {
    const node = nodeNameOf(attributes)!;
    if (attributes.resource.resource === "nodes") {
      if (attributes.name !== node) throw admissionForbidden(attributes, `node "${node}" is not allowed to modify node "${attributes.name}"`);
      return;
    }
    checkPod(attributes, node);
  },
});

function checkPod(attributes: ValidationAttributes, node: string): void {
  const pod = attributes.object ?? attributes.oldObject!;
  const boundTo = (pod.spec as { nodeName?: string } | undefined)?.nodeName;
  if (attributes.operation === "CREATE") {
    if (pod.metadata.annotations?.[MIRROR_ANNOTATION] === undefined) {
      throw admissionForbidden(attributes, `pod does not have "${MIRROR_ANNOTATION}" annotation, node "${node}" can only create mirror pods`);
    }
    if (boundTo !== node) throw admissionForbidden(attributes, `node "${node}" can only create pods with spec.nodeName set to itself`);
  } else if (attributes.operation === "UPDATE") {
    if (attributes.subresource !== "status") throw admissionForbidden(attributes, `node "${node}" can only update pod status`);
    if (boundTo !== node) throw admissionForbidden(attributes, `node "${node}" can only update pod status for pods with spec.nodeName set to itself`);
  } else if (attributes.operation === "DELETE" && boundTo !== node) {
    throw admissionForbidden(attributes, `node "${node}" can only delete pods with spec.nodeName set to itself`);
  }
}

function nodeNameOf(attributes: ValidationAttributes): string | undefined {
  const { username, groups } = attributes.user;
  return username.startsWith(NODE_PREFIX) && groups.includes("system:nodes") ? username.slice(NODE_PREFIX.length) : undefined;
}

export default nodeRestriction;
