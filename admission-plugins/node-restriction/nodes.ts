/**
 * NodeRestriction for Node objects (kube's admitNode): a node may write only its own Node; it may not set a
 * configSource, change its taints after registering, or set labels outside the kubelet's allowed set (nor any
 * node-restriction.kubernetes.io/ label), which would let it steer workloads meant for other nodes to itself.
 */
import type { KubeObject } from "../../core/api/types.ts";
import { semanticEqual } from "./_semantic-equal.ts";
import { forbidden, type NodeRequest } from "./_request.ts";

/** k8s.io/kubelet pkg/apis kubeletLabels: the well-known labels a kubelet sets on its own Node. */
const KUBELET_LABELS = new Set([
  "kubernetes.io/hostname",
  "topology.kubernetes.io/zone",
  "topology.kubernetes.io/region",
  "failure-domain.beta.kubernetes.io/zone",
  "failure-domain.beta.kubernetes.io/region",
  "beta.kubernetes.io/instance-type",
  "node.kubernetes.io/instance-type",
  "kubernetes.io/os",
  "kubernetes.io/arch",
  "beta.kubernetes.io/os",
  "beta.kubernetes.io/arch",
]);
/** kubeletLabelNamespaces: prefixes (and their subdomains) a kubelet may use freely. */
const KUBELET_LABEL_NAMESPACES = ["kubelet.kubernetes.io", "node.kubernetes.io"];
/** v1.LabelNamespaceNodeRestriction: labels only administrators may set, for isolating workloads by node. */
const NODE_RESTRICTION_NAMESPACE = "node-restriction.kubernetes.io";

interface NodeSpec {
  configSource?: unknown;
  taints?: unknown;
}

const specOf = (node: KubeObject): NodeSpec => (node.spec ?? {}) as NodeSpec;

export function admitNodeRequest(request: NodeRequest): void {
  const { node, attributes } = request;
  if (attributes.name !== node) throw forbidden(request, `node "${node}" is not allowed to modify node "${attributes.name}"`);
  if (attributes.operation === "CREATE") {
    const created = attributes.object!;
    // kube's message says "pods" here.
    if (!isNil(specOf(created).configSource)) {
      throw forbidden(request, `node "${node}" is not allowed to create pods with a non-nil configSource`);
    }
    const labels = forbiddenLabels(modifiedLabels(created.metadata.labels, undefined));
    if (labels.length > 0) throw forbidden(request, `node "${node}" is not allowed to set the following labels: ${labels.join(", ")}`);
  }
  if (attributes.operation === "UPDATE") {
    const updated = specOf(attributes.object!);
    const old = specOf(attributes.oldObject!);
    // Only a new non-nil value counts: old kubelets drop the field on status updates.
    if (!isNil(updated.configSource) && !semanticEqual(updated.configSource, old.configSource)) {
      throw forbidden(request, `node "${node}" is not allowed to update configSource to a new non-nil configSource`);
    }
    if (!semanticEqual(updated.taints, old.taints)) throw forbidden(request, `node "${node}" is not allowed to modify taints`);
    const labels = forbiddenLabels(modifiedLabels(attributes.object!.metadata.labels, attributes.oldObject!.metadata.labels));
    if (labels.length > 0) throw forbidden(request, `is not allowed to modify labels: ${labels.join(", ")}`);
  }
}

const isNil = (value: unknown) => value === undefined || value === null;

/** kube's getModifiedLabels: keys added, removed or changed between the two sets. */
export function modifiedLabels(a: Record<string, string> = {}, b: Record<string, string> = {}): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((key) => !(key in a) || !(key in b) || a[key] !== b[key]);
}

/** kube's getForbiddenLabels, sorted as sets.String.List() is. */
export function forbiddenLabels(keys: string[]): string[] {
  return keys.filter((key) =>
    inNamespace(labelNamespace(key), NODE_RESTRICTION_NAMESPACE) || (isKubernetesLabel(key) && !isKubeletLabel(key))
  ).sort();
}

function labelNamespace(key: string): string {
  const slash = key.indexOf("/");
  return slash < 0 ? "" : key.slice(0, slash);
}

/** The namespace itself or a subdomain of it. */
const inNamespace = (namespace: string, domain: string) => namespace === domain || namespace.endsWith(`.${domain}`);

const isKubernetesLabel = (key: string) => inNamespace(labelNamespace(key), "kubernetes.io") || inNamespace(labelNamespace(key), "k8s.io");

/** k8s.io/kubelet pkg/apis IsKubeletLabel. */
function isKubeletLabel(key: string): boolean {
  return KUBELET_LABELS.has(key) || KUBELET_LABEL_NAMESPACES.some((allowed) => inNamespace(labelNamespace(key), allowed));
}
