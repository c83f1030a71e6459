/** Printers for cluster-level kinds: Nodes, Namespaces, ComponentStatuses, Leases, PriorityClasses, RuntimeClasses. */
import type { KubeObject } from "../types.ts";
import { sortedStrings } from "./_format.ts";
import { AGE_COLUMN, column, definePrinter, NAME_COLUMN, wideColumn } from "./_printer.ts";
import { ageOf } from "./duration.ts";

interface Node extends KubeObject {
  spec?: { unschedulable?: boolean };
  status?: {
    conditions?: { type: string; status?: string }[];
    addresses?: { type: string; address: string }[];
    nodeInfo?: { kubeletVersion?: string; osImage?: string; kernelVersion?: string; containerRuntimeVersion?: string };
  };
}

const ROLE_LABEL_PREFIX = "node-role.kubernetes.io/";
const LEGACY_ROLE_LABEL = "kubernetes.io/role";

function nodeStatus(node: Node): string {
  // kube keeps the last condition of a repeated type.
  const ready = node.status?.conditions?.findLast((c) => c.type === "Ready");
  const status = [ready === undefined ? "Unknown" : ready.status === "True" ? "Ready" : "NotReady"];
  if (node.spec?.unschedulable) status.push("SchedulingDisabled");
  return status.join(",");
}

/** Roles from node-role.kubernetes.io/<role> label keys and the legacy kubernetes.io/role value. */
function nodeRoles(node: Node): string {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(node.metadata.labels ?? {})) {
    if (key.startsWith(ROLE_LABEL_PREFIX) && key.length > ROLE_LABEL_PREFIX.length) roles.add(key.slice(ROLE_LABEL_PREFIX.length));
    else if (key === LEGACY_ROLE_LABEL && value !== "") roles.add(value);
  }
  return roles.size === 0 ? "<none>" : sortedStrings(roles).join(",");
}

const addressOf = (node: Node, type: string) => node.status?.addresses?.find((a) => a.type === type)?.address ?? "<none>";

export const nodePrinter = definePrinter<Node>(
  [
    NAME_COLUMN,
    column("Status", "Readiness and schedulability of the node"),
    column("Roles", "Roles from the node's role labels"),
    AGE_COLUMN,
    column("Version", "Kubelet version"),
    wideColumn("Internal-IP", "First internal address"),
    wideColumn("External-IP", "First external address"),
    wideColumn("OS-Image", "Operating system image"),
    wideColumn("Kernel-Version", "Kernel version"),
    wideColumn("Container-Runtime", "Container runtime and version"),
  ],
  (node, now) => {
    const info = node.status?.nodeInfo ?? {};
    return [
      node.metadata.name,
      nodeStatus(node),
      nodeRoles(node),
      ageOf(node, now),
      info.kubeletVersion ?? "",
      addressOf(node, "InternalIP"),
      addressOf(node, "ExternalIP"),
      info.osImage || "<unknown>",
      info.kernelVersion || "<unknown>",
      info.containerRuntimeVersion || "<unknown>",
    ];
  },
);

export const namespacePrinter = definePrinter<KubeObject & { status?: { phase?: string } }>(
  [NAME_COLUMN, column("Status", "The namespace's phase"), AGE_COLUMN],
  (ns, now) => [ns.metadata.name, ns.status?.phase ?? "", ageOf(ns, now)],
);

interface ComponentStatus extends KubeObject {
  conditions?: { type: string; status?: string; message?: string; error?: string }[];
}

export const componentStatusPrinter = definePrinter<ComponentStatus>(
  [
    NAME_COLUMN,
    column("Status", "Health of the component"),
    column("Message", "Message of the health check"),
    column("Error", "Error of the health check"),
  ],
  (component) => {
    const healthy = component.conditions?.find((c) => c.type === "Healthy");
    if (!healthy) return [component.metadata.name, "Unknown", "", ""];
    return [component.metadata.name, healthy.status === "True" ? "Healthy" : "Unhealthy", healthy.message ?? "", healthy.error ?? ""];
  },
);

export const leasePrinter = definePrinter<KubeObject & { spec?: { holderIdentity?: string | null } }>(
  [NAME_COLUMN, column("Holder", "Identity of the current holder"), AGE_COLUMN],
  (lease, now) => [lease.metadata.name, lease.spec?.holderIdentity ?? "", ageOf(lease, now)],
);

export const priorityClassPrinter = definePrinter<KubeObject & { value?: number; globalDefault?: boolean }>(
  [
    NAME_COLUMN,
    column("Value", "Priority of pods in this class", { type: "integer" }),
    column("Global-Default", "Whether pods without a class get this one", { type: "boolean" }),
    AGE_COLUMN,
  ],
  (pc, now) => [pc.metadata.name, pc.value ?? 0, pc.globalDefault ?? false, ageOf(pc, now)],
);

export const runtimeClassPrinter = definePrinter<KubeObject & { handler?: string }>(
  [NAME_COLUMN, column("Handler", "The CRI handler that runs this class"), AGE_COLUMN],
  (rc, now) => [rc.metadata.name, rc.handler ?? "", ageOf(rc, now)],
);
