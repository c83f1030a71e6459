import { expect, test } from "bun:test";
import { builtInCatalog } from "../registry/catalog.ts";
import { Registry } from "../registry/registry.ts";
import { openSqliteStorage } from "../storage/sqlite/mod.ts";
import { racingStorage } from "../storage/testing.ts";
import { ensureSystemNamespaces } from "./bootstrap-namespaces.ts";
import { ensureBootstrapPolicy } from "./rbac-bootstrap.ts";

test("ensureBootstrapPolicy() creates the defaults, and on a later start restores missing pieces but keeps edits", async () => {
  const storage = openSqliteStorage(":memory:");
  try {
    const registry = new Registry(storage);
    const catalog = builtInCatalog();
    const roles = registry.store(catalog.byGroupVersionResource("rbac.authorization.k8s.io", "v1", "clusterroles")!);
    const bindings = registry.store(catalog.byGroupVersionResource("rbac.authorization.k8s.io", "v1", "clusterrolebindings")!);
    await ensureSystemNamespaces(registry, catalog);
    await ensureBootstrapPolicy(registry, catalog);
    const admin = await bindings.get("", "cluster-admin");
    expect(admin.subjects).toEqual([{ apiGroup: "rbac.authorization.k8s.io", kind: "Group", name: "system:masters" }]);
    expect(admin.metadata.annotations).toEqual({ "rbac.authorization.kubernetes.io/autoupdate": "true" });
    expect((await roles.get("", "view")).metadata.labels).toMatchObject({
      "kubernetes.io/bootstrapping": "rbac-defaults",
      "rbac.authorization.k8s.io/aggregate-to-edit": "true",
    });

    const extra = { apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "alice" };
    await bindings.update("", "cluster-admin", (b) => ({ ...b!, subjects: [extra] }));
    await roles.update("", "system:discovery", (r) => ({ ...r!, rules: [] }));
    await roles.update(
      "",
      "system:monitoring",
      (r) => ({ ...r!, rules: [], metadata: { ...r!.metadata, annotations: { "rbac.authorization.kubernetes.io/autoupdate": "false" } } }),
    );
    await ensureBootstrapPolicy(registry, catalog);
    expect((await bindings.get("", "cluster-admin")).subjects).toEqual([extra, {
      apiGroup: "rbac.authorization.k8s.io",
      kind: "Group",
      name: "system:masters",
    }]);
    expect((await roles.get("", "system:discovery")).rules).not.toEqual([]);
    expect((await roles.get("", "system:monitoring")).rules).toEqual([]);
  } finally {
    await storage.close();
  }
});

test("ensureBootstrapPolicy() binds each system:controller role to its kube-system service account and adds namespace_policy's Roles", async () => {
  const storage = openSqliteStorage(":memory:");
  try {
    const registry = new Registry(storage);
    const catalog = builtInCatalog();
    const store = (resource: string) => registry.store(catalog.byGroupVersionResource("rbac.authorization.k8s.io", "v1", resource)!);
    await ensureSystemNamespaces(registry, catalog);
    await ensureBootstrapPolicy(registry, catalog);
    const binding = await store("clusterrolebindings").get("", "system:controller:job-controller");
    expect(binding.subjects).toEqual([{ kind: "ServiceAccount", name: "job-controller", namespace: "kube-system" }]);
    expect(binding.roleRef).toEqual({
      apiGroup: "rbac.authorization.k8s.io",
      kind: "ClusterRole",
      name: "system:controller:job-controller",
    });
    expect((await store("clusterroles").get("", "system:controller:disruption-controller")).rules).toContainEqual({
      apiGroups: ["*"],
      resources: ["*/scale"],
      verbs: ["get"],
    });
    const cleaner = await store("roles").get("kube-system", "system:controller:token-cleaner");
    expect(cleaner.rules).toContainEqual({ apiGroups: [""], resources: ["secrets"], verbs: ["get", "list", "watch", "delete"] });
    expect((await store("rolebindings").get("kube-public", "system:controller:bootstrap-signer")).subjects).toEqual([{
      kind: "ServiceAccount",
      name: "bootstrap-signer",
      namespace: "kube-system",
    }]);
  } finally {
    await storage.close();
  }
});

test("ensureBootstrapPolicy() run by two starters at once reconciles again when the other's write got in between", async () => {
  const storage = openSqliteStorage(":memory:");
  try {
    const registry = new Registry(storage);
    const catalog = builtInCatalog();
    const roles = registry.store(catalog.byGroupVersionResource("rbac.authorization.k8s.io", "v1", "clusterroles")!);
    await ensureSystemNamespaces(registry, catalog);
    await ensureBootstrapPolicy(registry, catalog);
    for (const name of ["system:discovery", "system:basic-user", "system:public-info-viewer"]) {
      await roles.update("", name, (r) => ({ ...r!, rules: [] }));
    }
    await Promise.all([ensureBootstrapPolicy(registry, catalog), ensureBootstrapPolicy(registry, catalog)]);
    expect((await roles.get("", "system:discovery")).rules).not.toEqual([]);
  } finally {
    await storage.close();
  }
});

test("ensureBootstrapPolicy() reconciles a role again when another write lands between its read and its update (RetryOnConflict with DefaultBackoff)", async () => {
  const storage = racingStorage(openSqliteStorage(":memory:"));
  try {
    const registry = new Registry(storage);
    const catalog = builtInCatalog();
    const roles = registry.store(catalog.byGroupVersionResource("rbac.authorization.k8s.io", "v1", "clusterroles")!);
    await ensureSystemNamespaces(registry, catalog);
    await ensureBootstrapPolicy(registry, catalog);
    await roles.update("", "system:discovery", (r) => ({ ...r!, rules: [] }));
    const key = roles.key("", "system:discovery");
    storage.raceNextUpdate(
      key,
      () =>
        roles.update(
          "",
          "system:discovery",
          (r) => ({ ...r!, metadata: { ...r!.metadata, labels: { ...r!.metadata.labels, edited: "yes" } } }),
        ),
    );
    const before = storage.updatesOf(key);
    await ensureBootstrapPolicy(registry, catalog);
    const role = await roles.get("", "system:discovery");
    expect(role.rules).not.toEqual([]);
    expect(role.metadata.labels?.edited).toBe("yes");
    // The reconcile's update (409 on the stale resourceVersion), the interleaved one, and the reconcile's next, on a fresh read.
    expect(storage.updatesOf(key) - before).toBe(3);
  } finally {
    await storage.close();
  }
});

test("ensureBootstrapPolicy() creates kube's kube-system Roles and RoleBindings (bootstrappolicy NamespaceRoles), extension-apiserver-authentication-reader among them", async () => {
  const storage = openSqliteStorage(":memory:");
  try {
    const registry = new Registry(storage);
    const catalog = builtInCatalog();
    await ensureSystemNamespaces(registry, catalog);
    await ensureBootstrapPolicy(registry, catalog);
    const roles = registry.store(catalog.byGroupVersionResource("rbac.authorization.k8s.io", "v1", "roles")!);
    const bindings = registry.store(catalog.byGroupVersionResource("rbac.authorization.k8s.io", "v1", "rolebindings")!);
    expect((await roles.get("kube-system", "extension-apiserver-authentication-reader")).rules).toEqual([
      {
        apiGroups: [""],
        resources: ["configmaps"],
        resourceNames: ["extension-apiserver-authentication"],
        verbs: ["get", "list", "watch"],
      },
    ]);
    const binding = await bindings.get("kube-system", "system::extension-apiserver-authentication-reader");
    expect(binding.roleRef).toEqual({
      apiGroup: "rbac.authorization.k8s.io",
      kind: "Role",
      name: "extension-apiserver-authentication-reader",
    });
    expect((binding.subjects as { name: string }[]).map((s) => s.name)).toEqual([
      "system:kube-controller-manager",
      "system:kube-scheduler",
    ]);
    expect((await roles.get("kube-public", "system:controller:bootstrap-signer")).metadata.labels).toEqual({
      "kubernetes.io/bootstrapping": "rbac-defaults",
    });
  } finally {
    await storage.close();
  }
});
