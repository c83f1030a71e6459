/** The namespaces kube-apiserver creates at start (default, kube-system, kube-public, kube-node-lease): bootstrap writes. */
import { createIfMissing } from "../registry/create-if-missing.ts";
import type { Catalog } from "../registry/catalog.ts";
import type { Registry } from "../registry/registry.ts";

export const SYSTEM_NAMESPACES = ["default", "kube-system", "kube-public", "kube-node-lease"];

export async function ensureSystemNamespaces(registry: Registry, catalog: Catalog): Promise<void> {
  const namespaces = registry.bootstrapWriter().store(catalog.byGroupVersionResource("", "v1", "namespaces")!);
  // kube's createNamespaceIfNeeded: a restart reads the four namespaces instead of attempting four creates.
  for (const name of SYSTEM_NAMESPACES) await createIfMissing(namespaces, "", { apiVersion: "v1", kind: "Namespace", metadata: { name } });
}
