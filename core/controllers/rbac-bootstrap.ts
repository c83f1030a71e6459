/**
 * Creates kube's default ClusterRoles and ClusterRoleBindings (and the Roles and RoleBindings of kube-system and
 * kube-public) at first start and reconciles them on later
 * starts (kube's rbac/bootstrap-roles post-start hook): missing pieces are added, user additions kept,
 * objects annotated autoupdate "false" untouched.
 */
import { isAlreadyExists, isNotFound } from "../api/errors.ts";
import { DEFAULT_BACKOFF, retryOnConflict } from "../api/retry.ts";
import type { KubeObject } from "../api/types.ts";
import {
  bootstrapClusterRoleBindings,
  bootstrapClusterRoles,
  bootstrapRoleBindings,
  bootstrapRoles,
} from "../auth/rbac/bootstrap-policy.ts";
import { RBAC_GROUP } from "../auth/rbac/policy-types.ts";
import { reconcileClusterRole, reconcileClusterRoleBinding, type Reconciliation } from "../auth/rbac/reconcile.ts";
import type { Catalog } from "../registry/catalog.ts";
import type { Registry } from "../registry/registry.ts";
import type { ResourceStore } from "../registry/store.ts";

type Reconcile = (existing: KubeObject, expected: KubeObject) => Reconciliation;

/** ReconcileRoleOptions.run's limit on starting over when the object appears or disappears meanwhile. */
const RECONCILE_ATTEMPTS = 3;

/**
 * kube's rbac/bootstrap-roles PostStartHook: each object is reconciled under retry.RetryOnConflict(
 * retry.DefaultBackoff), the update naming the resourceVersion read; a create that finds the object made meanwhile,
 * or an update that finds it deleted, starts over (ReconcileRoleOptions.run, at most 3 attempts).
 */
async function ensureObject(store: ResourceStore, expected: KubeObject, reconcile: Reconcile): Promise<void> {
  await retryOnConflict(DEFAULT_BACKOFF, async () => {
    for (let attempt = 1;; attempt++) {
      try {
        return await reconcileOnce(store, expected, reconcile);
      } catch (e) {
        if (!(isAlreadyExists(e) || isNotFound(e)) || attempt >= RECONCILE_ATTEMPTS) throw e;
      }
    }
  });
}

async function reconcileOnce(store: ResourceStore, expected: KubeObject, reconcile: Reconcile): Promise<void> {
  const name = String(expected.metadata.name);
  const namespace = expected.metadata.namespace ?? "";
  const existing = await store.get(namespace, name).catch((e) => {
    if (isNotFound(e)) return null;
    throw e;
  });
  if (!existing) {
    await store.create(namespace, expected);
    return;
  }
  const result = reconcile(existing, expected);
  if (result.action === "none") return;
  if (result.action === "recreate") {
    await store.delete(namespace, name);
    const { resourceVersion: _r, uid: _u, creationTimestamp: _c, ...metadata } = result.object.metadata;
    await store.create(namespace, { ...result.object, metadata });
    return;
  }
  await store.update(namespace, name, () => result.object);
}

/** Bootstrap writes: the policy exists before any request is authorized or admitted. */
export async function ensureBootstrapPolicy(registry: Registry, catalog: Catalog): Promise<void> {
  const storeOf = (resource: string) => registry.bootstrapWriter().store(catalog.byGroupVersionResource(RBAC_GROUP, "v1", resource)!);
  const roles = storeOf("clusterroles");
  const bindings = storeOf("clusterrolebindings");
  for (const role of bootstrapClusterRoles()) await ensureObject(roles, role, reconcileClusterRole);
  for (const binding of bootstrapClusterRoleBindings()) await ensureObject(bindings, binding, reconcileClusterRoleBinding);
  // Roles reconcile like ClusterRoles and RoleBindings like ClusterRoleBindings (kube's reconciliation uses one path for both).
  for (const role of bootstrapRoles()) await ensureObject(storeOf("roles"), role, reconcileClusterRole);
  for (const binding of bootstrapRoleBindings()) await ensureObject(storeOf("rolebindings"), binding, reconcileClusterRoleBinding);
}
