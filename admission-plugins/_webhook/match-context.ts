/** The lookups webhook matching needs, answered from the served types and the store. */
import { newInternalError } from "../../core/api/errors.ts";
import type { ReadOnlyClient } from "../../core/api/client.ts";
import type { Catalog } from "../../core/registry/catalog.ts";
import { collectionPrefix } from "../../core/registry/keys.ts";
import type { MatchContext } from "./invocation.ts";

export function matchContext(catalog: Catalog, client: ReadOnlyClient): MatchContext {
  return {
    // Resources served over one stored collection (versions of a group, cohabiting groups) are kube's equivalent
    // resources: genericapiserver's EquivalentResourceRegistry is keyed by the storage's ResourcePrefix.
    equivalents(resource, subresource) {
      const collection = collectionPrefix({ ...resource, namespaced: false }, "");
      return catalog.all()
        .filter((type) =>
          collectionPrefix({ ...type, namespaced: false }, "") === collection &&
          (type.group !== resource.group || type.version !== resource.version)
        )
        .flatMap((type) => {
          const sub = subresource ? type.subresources.find((s) => s.name === subresource) : undefined;
          if (subresource && !sub) return [];
          const kind = sub
            ? { group: sub.group ?? type.group, version: sub.version ?? type.version, kind: sub.kind }
            : { group: type.group, version: type.version, kind: type.kind };
          return [{ resource: { group: type.group, version: type.version, resource: type.resource }, kind }];
        });
    },
    async namespaceLabels(name) {
      const namespace = await client.get({ group: "", version: "v1", resource: "namespaces", name });
      if (!namespace) throw newInternalError(`namespaces "${name}" not found`);
      return namespace.metadata.labels ?? {};
    },
  };
}
