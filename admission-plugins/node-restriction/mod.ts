/**
 * NodeRestriction (kube's plugin/pkg/admission/noderestriction): limits what a kubelet (user system:node:<name>
 * in group system:nodes) may write to its own Node, Lease and CSINode, the pods bound to it (mirror pods
 * without API references, status, deletion, eviction), claim status and tokens for its pods, so that a node
 * cannot widen what the Node authorizer lets it read. Like kube's it is a mutating plugin (Admit), so it sees a
 * write as sent, before the status strategies drop what a status write may not change.
 */
import type { AdmissionAttributes, BuiltInAdmissionFactory } from "../../core/admission/types.ts";
import { nodeIdentity } from "../../core/auth/node-identity.ts";
import { admitClaimRequest, admitCSINodeRequest, admitLeaseRequest, admitServiceAccountRequest } from "./node-objects.ts";
import { admitNodeRequest } from "./nodes.ts";
import { admitPodRequest } from "./pods.ts";
import { forbidden, type NodeRequest } from "./_request.ts";

type Rule = (request: NodeRequest) => Promise<void> | void;

/** kube's Admit switch, by group/resource; anything else is not restricted. */
const RULES: Record<string, Rule> = {
  "/pods": admitPodRequest,
  "/nodes": admitNodeRequest,
  "/persistentvolumeclaims": admitClaimRequest,
  "/serviceaccounts": admitServiceAccountRequest,
  "coordination.k8s.io/leases": admitLeaseRequest,
  "storage.k8s.io/csinodes": admitCSINodeRequest,
};

const nodeRestriction: BuiltInAdmissionFactory = ({ client }) => ({
  name: "NodeRestriction",
  // kube's admission.NewHandler(Create, Update, Delete), for node identities only.
  handles: (a) => a.operation !== "CONNECT" && nodeIdentity(a.user) !== undefined,
  async admit(attributes: AdmissionAttributes) {
    const node = nodeIdentity(attributes.user)!;
    const request = { node, attributes, client };
    if (node === "") throw forbidden(request, `could not determine node from user "${attributes.user.username}"`);
    await RULES[`${attributes.resource.group}/${attributes.resource.resource}`]?.(request);
  },
});

export default nodeRestriction;
