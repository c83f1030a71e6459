/** Service and Pod objects for the endpoints controllers' tests. */
import type { KubeObject } from "../api/types.ts";
import type { ResourceStore } from "../registry/store.ts";

export interface TestPodOptions {
  ip?: string;
  ready?: boolean;
  readySince?: string;
  phase?: string;
  node?: string;
  labels?: Record<string, string>;
  ports?: { name?: string; containerPort: number; protocol?: string }[];
}

/** A running Pod `app=web` with IP 10.1.0.1 (ready unless told otherwise), as it reads after scheduling. */
export function testPod(name: string, options: TestPodOptions): KubeObject {
  const ready = options.ready ?? true;
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      namespace: "default",
      uid: `uid-${name}`,
      labels: options.labels ?? { app: "web" },
      creationTimestamp: "2024-01-01T00:00:00Z",
    },
    spec: { nodeName: options.node, containers: [{ name: "c", image: "nginx", ports: options.ports ?? [] }] },
    status: {
      phase: options.phase ?? "Running",
      podIP: options.ip ?? "10.1.0.1",
      conditions: [{ type: "Ready", status: ready ? "True" : "False", lastTransitionTime: options.readySince ?? "2024-01-01T00:00:00Z" }],
    },
  };
}

export interface TestServiceOptions {
  selector?: Record<string, string>;
  ports?: { name?: string; port: number; targetPort?: number | string; protocol?: string }[];
  type?: string;
  clusterIP?: string;
  labels?: Record<string, string>;
  created?: string;
  publishNotReadyAddresses?: boolean;
}

export function testService(name: string, options: TestServiceOptions): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: {
      name,
      namespace: "default",
      uid: `uid-${name}`,
      labels: options.labels,
      creationTimestamp: options.created ?? "2023-12-01T00:00:00Z",
    },
    spec: {
      type: options.type ?? "ClusterIP",
      clusterIP: options.clusterIP ?? "10.0.0.10",
      selector: options.selector,
      ports: options.ports,
      publishNotReadyAddresses: options.publishNotReadyAddresses,
    },
  };
}

/** Stores `pod` and then its status (a create ignores status, as in kube). */
export async function storePod(pods: ResourceStore, pod: KubeObject): Promise<KubeObject> {
  const { status, ...body } = pod;
  const created = await pods.create("default", { ...body, metadata: { name: pod.metadata.name, labels: pod.metadata.labels } });
  const { object } = await pods.update("default", String(created.metadata.name), (live) => ({ ...live!, status }), {
    subresource: "status",
  });
  return object;
}
