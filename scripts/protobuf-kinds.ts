/**
 * The map from `apiVersion/kind` to the protobuf message that encodes it, from the OpenAPI v2 definitions'
 * x-kubernetes-group-version-kind and kube's naming rule between definitions and proto packages.
 */

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface OpenAPIDefinition {
  properties?: Record<string, Record<string, unknown>>;
  "x-kubernetes-group-version-kind"?: GroupVersionKind[];
}

// Proto packages replace the dashes of Go module paths with underscores.
const DEFINITION_PREFIXES: [definition: string, proto: string][] = [
  ["io.k8s.apiextensions-apiserver.", "k8s.io.apiextensions_apiserver."],
  ["io.k8s.kube-aggregator.", "k8s.io.kube_aggregator."],
  ["io.k8s.", "k8s.io."],
];

/** `io.k8s.api.core.v1.Pod` → `k8s.io.api.core.v1.Pod`; null for definitions outside kube's proto packages. */
export function messageNameOfDefinition(definition: string): string | null {
  for (const [from, to] of DEFINITION_PREFIXES) {
    if (definition.startsWith(from)) return to + definition.slice(from.length);
  }
  return null;
}

/** The reverse of messageNameOfDefinition. */
export function definitionOfMessage(message: string): string {
  for (const [to, from] of DEFINITION_PREFIXES) {
    if (message.startsWith(from)) return to + message.slice(from.length);
  }
  return message;
}

function apiVersionKey(gvk: GroupVersionKind): string {
  return gvk.group === "" ? `${gvk.version}/${gvk.kind}` : `${gvk.group}/${gvk.version}/${gvk.kind}`;
}

const META = "k8s.io.apimachinery.pkg.apis.meta.v1";

// Bodies kube also sends in protobuf (`as=PartialObjectMetadata`) whose definitions carry no group-version-kind,
// the meta.k8s.io/v1 DeleteOptions kube's delete handler (endpoints/handlers DeleteResource) also accepts, and the
// RangeAllocation kube stores (never serves) for the Service IP and node port allocators.
const EXTRA_KINDS: Record<string, string> = {
  "v1/RangeAllocation": "k8s.io.api.core.v1.RangeAllocation",
  "meta.k8s.io/v1/DeleteOptions": `${META}.DeleteOptions`,
  "meta.k8s.io/v1/PartialObjectMetadata": `${META}.PartialObjectMetadata`,
  "meta.k8s.io/v1/PartialObjectMetadataList": `${META}.PartialObjectMetadataList`,
  "meta.k8s.io/v1beta1/PartialObjectMetadata": `${META}.PartialObjectMetadata`,
  "meta.k8s.io/v1beta1/PartialObjectMetadataList": `${META}.PartialObjectMetadataList`,
};

/** `apiVersion/kind` → message name, sorted; only messages present in the proto files are kept. */
export function kindMessages(
  definitions: Record<string, OpenAPIDefinition>,
  hasMessage: (name: string) => boolean,
): Record<string, string> {
  const found: Record<string, string> = { ...EXTRA_KINDS };
  for (const [definition, schema] of Object.entries(definitions)) {
    const message = messageNameOfDefinition(definition);
    if (message === null || !hasMessage(message)) continue;
    for (const gvk of schema["x-kubernetes-group-version-kind"] ?? []) found[apiVersionKey(gvk)] = message;
  }
  return Object.fromEntries(Object.entries(found).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
