/** The resource types a CustomResourceDefinition serves: one per served version, under its accepted names. */
import { storageVersionHash } from "../registry/storage-version-hash.ts";
import type { ResourceType, SubresourceType } from "../api/resource-type.ts";
import { type CRDNames, type CRDVersion, type CustomResourceDefinition, storageVersionOf } from "../registry/apiextensions/mod.ts";

const VERBS = ["delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"];

function subresourcesOf(version: CRDVersion, kind: string): SubresourceType[] {
  const subresources: SubresourceType[] = [];
  if (version.subresources?.status) subresources.push({ name: "status", kind, verbs: ["get", "patch", "update"] });
  if (version.subresources?.scale) {
    subresources.push({ name: "scale", kind: "Scale", group: "autoscaling", version: "v1", verbs: ["get", "patch", "update"] });
  }
  return subresources;
}

/** One type per served version; `names` are the accepted names (the spec's once accepted). */
export function resourceTypesOf(crd: CustomResourceDefinition, names: CRDNames = crd.spec.names): ResourceType[] {
  const storage = storageVersionOf(crd);
  const hash = storage ? storageVersionHash(crd.spec.group, storage.name, names.kind) : undefined;
  return crd.spec.versions.filter((version) => version.served).map((version) => ({
    group: crd.spec.group,
    version: version.name,
    resource: names.plural,
    singularName: names.singular ?? names.kind.toLowerCase(),
    kind: names.kind,
    listKind: names.listKind ?? `${names.kind}List`,
    namespaced: crd.spec.scope === "Namespaced",
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
    verbs: VERBS,
    subresources: subresourcesOf(version, names.kind),
    storageVersionHash: hash,
  }));
}
