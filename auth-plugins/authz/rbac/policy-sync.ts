/** Keeps a PolicyIndex current by watching the four RBAC types through the plugin's read-only client. */
import type { CollectionEvent, CollectionFollow, ReadOnlyClient } from "../../../plugins/sdk.ts";
import type { PolicyIndex } from "../../../core/auth/rbac/policy-index.ts";
import { RBAC_GROUP } from "../../../core/auth/rbac/policy-types.ts";

type Apply = (index: PolicyIndex, event: CollectionEvent) => void;

const name = (e: CollectionEvent) => String(e.object.metadata.name);
const namespace = (e: CollectionEvent) => String(e.object.metadata.namespace ?? "");

const APPLIERS: Record<string, Apply> = {
  clusterroles: (index, e) => e.type === "DELETED" ? index.deleteClusterRole(name(e)) : index.setClusterRole(e.object),
  roles: (index, e) => e.type === "DELETED" ? index.deleteRole(namespace(e), name(e)) : index.setRole(e.object),
  clusterrolebindings: (index, e) =>
    e.type === "DELETED" ? index.deleteBinding("ClusterRoleBinding", "", name(e)) : index.setBinding("ClusterRoleBinding", e.object),
  rolebindings: (index, e) =>
    e.type === "DELETED" ? index.deleteBinding("RoleBinding", namespace(e), name(e)) : index.setBinding("RoleBinding", e.object),
};

/** Resolves once the index holds every current RBAC object; stop() ends the watches. */
export async function syncPolicyIndex(client: ReadOnlyClient, index: PolicyIndex): Promise<CollectionFollow> {
  const follows = await Promise.all(
    Object.entries(APPLIERS).map(([resource, apply]) =>
      client.watch({ group: RBAC_GROUP, version: "v1", resource }, (e) => apply(index, e))
    ),
  );
  return { stop: () => follows.forEach((f) => f.stop()) };
}
