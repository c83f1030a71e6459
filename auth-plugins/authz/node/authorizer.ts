/**
 * The Node authorizer (kube 1.26's plugin/pkg/auth/authorizer/node): a node (user system:node:<name> in group
 * system:nodes) may get its own Node and the Pods, Secrets, ConfigMaps, claims and volumes related to it in the
 * graph, list and watch all Pods and Nodes (kube 1.26's system:node rules; kubelets list their pods with
 * fieldSelector=spec.nodeName, a per-node restriction kube added only later), report status, keep its Lease,
 * and do what the static node rules allow. Anything else, and anyone else, gets no opinion.
 */
import type { Attributes, AuthorizationResult, Authorizer, PolicyRule } from "../../../plugins/sdk.ts";
import { nodeIdentity } from "../../../core/auth/node-identity.ts";
import { ruleAllows } from "../../../core/auth/rbac/rule-match.ts";
import type { GraphKind, NodeGraph } from "./graph.ts";

const NODE_LEASE_NAMESPACE = "kube-node-lease";

const ALLOW: AuthorizationResult = { decision: "Allow" };
const NO_OPINION: AuthorizationResult = { decision: "NoOpinion" };
const noOpinion = (reason?: string): AuthorizationResult => (reason ? { decision: "NoOpinion", reason } : NO_OPINION);

type Check = (graph: NodeGraph, node: string, a: Attributes) => AuthorizationResult;

function related(graph: NodeGraph, node: string, kind: GraphKind, a: Attributes): AuthorizationResult {
  if (a.name === "") return noOpinion("No Object name found");
  return graph.relates(node, kind, a.namespace, a.name) ? ALLOW : noOpinion(`no relationship found between node '${node}' and this object`);
}

function getRelated(kind: GraphKind): Check {
  return (graph, node, a) => {
    if (a.verb !== "get") return noOpinion("can only get individual resources of this type");
    if (a.subresource !== "") return noOpinion("cannot get subresource");
    return related(graph, node, kind, a);
  };
}

function readRelated(kind: GraphKind): Check {
  return (graph, node, a) => {
    if (!["get", "list", "watch"].includes(a.verb)) return noOpinion("can only read resources of this type");
    if (a.subresource !== "") return noOpinion("cannot read subresource");
    if (a.namespace === "") return noOpinion("can only read namespaced object of this type");
    return related(graph, node, kind, a);
  };
}

const claims: Check = (graph, node, a) => {
  if (a.subresource !== "status") return getRelated("persistentvolumeclaim")(graph, node, a);
  if (a.verb !== "update" && a.verb !== "patch") return noOpinion("can only get/update/patch this type");
  return related(graph, node, "persistentvolumeclaim", a);
};

const serviceAccountTokens: Check = (graph, node, a) => {
  if (a.verb !== "create" || a.name === "") return noOpinion("can only create tokens for individual service accounts");
  if (a.subresource !== "token") return noOpinion("can only create token subresource of serviceaccount");
  return related(graph, node, "serviceaccount", a);
};

/** Its own object only; create is checked by name by the NodeRestriction admission plugin. */
function ownObject(what: string, namespace?: string): Check {
  return (_graph, node, a) => {
    if (!["get", "create", "update", "patch", "delete"].includes(a.verb)) {
      return noOpinion(`can only get, create, update, patch, or delete a ${what}`);
    }
    if (namespace !== undefined && a.namespace !== namespace) {
      return noOpinion(`can only access leases in the "${namespace}" system namespace`);
    }
    if (namespace === undefined && a.subresource !== "") return noOpinion(`cannot authorize ${what} subresources`);
    if (a.verb !== "create" && a.name !== node) return noOpinion(`can only access ${what} with the same name as the requesting node`);
    return ALLOW;
  };
}

const nodes: Check = (_graph, node, a) => {
  if (a.subresource === "status") return a.verb === "update" || a.verb === "patch" ? ALLOW : noOpinion();
  if (a.subresource !== "") return noOpinion();
  if (["create", "update", "patch", "list", "watch"].includes(a.verb)) return ALLOW;
  if (a.verb !== "get") return noOpinion();
  return a.name === node ? ALLOW : noOpinion(`node '${node}' cannot read '${a.name}', only its own Node object`);
};

const pods: Check = (graph, node, a) => {
  const verb = a.verb;
  if (a.subresource === "status") return verb === "update" || verb === "patch" ? ALLOW : noOpinion();
  if (a.subresource === "eviction") return verb === "create" ? ALLOW : noOpinion();
  if (a.subresource !== "") return noOpinion();
  // Mirror pods; NodeRestriction admission limits them to the node's own.
  if (verb === "create" || verb === "delete") return ALLOW;
  if (verb === "list" || verb === "watch") return ALLOW;
  return verb === "get" ? getRelated("pod")(graph, node, a) : noOpinion();
};

const CHECKS: Record<string, Check> = {
  "/secrets": readRelated("secret"),
  "/configmaps": readRelated("configmap"),
  "/persistentvolumeclaims": claims,
  "/persistentvolumes": getRelated("persistentvolume"),
  "/serviceaccounts": serviceAccountTokens,
  "/nodes": nodes,
  "/pods": pods,
  "coordination.k8s.io/leases": ownObject("node lease", NODE_LEASE_NAMESPACE),
  "storage.k8s.io/csinodes": ownObject("CSINode"),
  "storage.k8s.io/volumeattachments": getRelated("volumeattachment"),
};

/** `rules`: what every node may do on resources not checked against the graph (kube's bootstrap NodeRules). */
export function nodeAuthorizer(graph: NodeGraph, rules: PolicyRule[]): Authorizer {
  return {
    // The graph is in memory: a decision needs no waiting, so it is answered as a plain value.
    authorize(a) {
      const node = nodeIdentity(a.user);
      if (node === undefined) return noOpinion();
      if (node === "") return noOpinion(`unknown node for user ${JSON.stringify(a.user.username)}`);
      const check = a.isResourceRequest ? CHECKS[`${a.apiGroup}/${a.resource}`] : undefined;
      if (check) return check(graph, node, a);
      return rules.some((rule) => ruleAllows(a, rule)) ? ALLOW : noOpinion();
    },
    rulesFor(user) {
      if (nodeIdentity(user) === undefined) return Promise.resolve({ rules: [], incomplete: false, errors: [] });
      return Promise.resolve({ rules: [], incomplete: true, errors: ["node authorizer does not support user rule resolution"] });
    },
  };
}
