/** The namespaces kube-apiserver creates at start (default, kube-system, kube-public, kube-node-lease): bootstrap writes. */
import { isAlreadyExists, isNotFound } from "../api/errors.ts";
import type { Catalog } from "../registry/catalog.ts";
import type { Registry } from "../registry/registry.ts";

export const SYSTEM_NAMESPACES = ["default", "kube-system", "kube-public", "kube-node-lease"];

export async function ensureSystemNamespaces(registry: Registry, catalog: Catalog): Promise<void> {
  const namespaces = registry.bootstrapWriter().store(catalog.byGroupVersionResource("", "v1", "namespaces")!);
  for (const name of SYSTEM_NAMESPACES) {
    // kube's createNamespaceIfNeeded: a get first, so a restart reads four namespaces instead of attempting four creates.
    const exists = await namespaces.get("", name).then(() => true, (e) => {
      if (isNotFound(e)) return false;
      throw e;
    });
    if (exists) continue;
    try {
      await namespaces.create("", { apiVersion: "v1", kind: "Namespace", metadata: { name } });
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
  }
}
