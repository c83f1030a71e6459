/** The Node objects and node Leases of simulated nodes `sim-<i>`, as a kubelet on a 4-CPU, 16Gi machine reports them. */
import type { KubeObject } from "../../api/types.ts";

export const SIMULATED_NODE_PREFIX = "sim-";
export const NODE_LEASE_NAMESPACE = "kube-node-lease";
/** Marks the Nodes kubun's simulated kubelets play. */
export const SIMULATED_NODE_LABEL = "kubun.io/simulated";
const LEASE_DURATION_SECONDS = 40;

export function simulatedNodeName(index: number): string {
  return `${SIMULATED_NODE_PREFIX}${index}`;
}

/** Each node's pods get addresses from 10.244.<i>.0/24, as a CNI with per-node ranges hands them out. */
export function podCidrOf(index: number): string {
  return `10.244.${index}.0/24`;
}

export function nodeAddress(index: number): string {
  return `10.0.0.${10 + index}`;
}

export function simulatedNode(index: number, now: string): KubeObject {
  const name = simulatedNodeName(index);
  const resources = { cpu: "4", memory: "16Gi", pods: "110", "ephemeral-storage": "100Gi" };
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name,
      labels: {
        "beta.kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        [SIMULATED_NODE_LABEL]: "true",
      },
      annotations: { "node.alpha.kubernetes.io/ttl": "0" },
    },
    spec: { podCIDR: podCidrOf(index), podCIDRs: [podCidrOf(index)] },
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: nodeConditions(now),
      addresses: [{ type: "InternalIP", address: nodeAddress(index) }, { type: "Hostname", address: name }],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: `kubun-${name}`,
        systemUUID: `kubun-${name}`,
        bootID: `kubun-${name}`,
        kernelVersion: "simulated",
        osImage: "kubun simulated node",
        containerRuntimeVersion: "kubun://simulated",
        kubeletVersion: "v1.26.0",
        kubeProxyVersion: "v1.26.0",
        operatingSystem: "linux",
        architecture: "amd64",
      },
    },
  };
}

export function nodeConditions(now: string): unknown[] {
  const condition = (type: string, status: string, reason: string, message: string) => ({
    type,
    status,
    lastHeartbeatTime: now,
    lastTransitionTime: now,
    reason,
    message,
  });
  return [
    condition("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
    condition("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
    condition("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
    condition("Ready", "True", "KubeletReady", "kubelet is posting ready status"),
  ];
}

/** The node's heartbeat Lease in kube-node-lease, owned by its Node. */
export function nodeLease(node: KubeObject, renewTime: string): KubeObject {
  const name = String(node.metadata.name);
  return {
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: {
      name,
      namespace: NODE_LEASE_NAMESPACE,
      ownerReferences: [{ apiVersion: "v1", kind: "Node", name, uid: String(node.metadata.uid) }],
    },
    spec: { holderIdentity: name, leaseDurationSeconds: LEASE_DURATION_SECONDS, renewTime },
  };
}
