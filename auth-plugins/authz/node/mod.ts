/** Node (--authorization-mode=Node): kubelet identities, checked against a graph kept current by following the store. */
import { BOOTSTRAP_CLUSTER_ROLES } from "../../../core/auth/rbac/bootstrap-roles.ts";
import { defineAuthorizer } from "../../../plugins/sdk.ts";
import { nodeAuthorizer } from "./authorizer.ts";
import { NodeGraph } from "./graph.ts";
import { syncNodeGraph } from "./graph-sync.ts";

/** kube's bootstrappolicy.NodeRules() are the rules of the system:node ClusterRole. */
const NODE_RULES = BOOTSTRAP_CLUSTER_ROLES.find((role) => role.name === "system:node")!.rules;

export default defineAuthorizer(async ({ client }) => {
  const graph = new NodeGraph();
  await syncNodeGraph(client, graph);
  return nodeAuthorizer(graph, NODE_RULES);
});
