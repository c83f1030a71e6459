/**
 * One realistic object of every built-in kind @kubernetes/client-node's typed APIs offer in a version kubun serves,
 * with the status a controller would write (where the kind has a status subresource), for the typed sweep.
 */
import { exampleCrd } from "./_crd.ts";

export interface SweepKind {
  /** The client's API class, e.g. "AppsV1Api". */
  api: string;
  apiVersion: string;
  kind: string;
  namespaced: boolean;
  /** The object's fields besides apiVersion, kind and metadata. */
  fields: Record<string, unknown>;
  /** What a controller writes through the status subresource; undefined writes back what was read. */
  status?: Record<string, unknown>;
  /** The status subresource leaves labels as stored (the kind's status strategy resets them). */
  statusKeepsLabels?: true;
}

const NOW = "2026-01-01T00:00:00Z";
const NOW_MICRO = "2026-01-01T00:00:00.123456Z";
export const SWEEP_LABELS = { app: "sweep" };
const POD_SPEC = { containers: [{ name: "c", image: "nginx:1.23", ports: [{ containerPort: 80, protocol: "TCP" }] }] };
const TEMPLATE = { metadata: { labels: SWEEP_LABELS }, spec: POD_SPEC };
const SELECTOR = { matchLabels: SWEEP_LABELS };
const RULES = [{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }];
const WEBHOOKS = [{
  name: "w.example.com",
  clientConfig: { url: "https://example.com/w" },
  sideEffects: "None",
  admissionReviewVersions: ["v1"],
  rules: [{ apiGroups: ["example.com"], apiVersions: ["v1"], operations: ["CREATE"], resources: ["things"] }],
}];
const HPA_TARGET = { scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "d" }, maxReplicas: 3 };
/** A CustomResourceDefinition of an example.com/v1 kind with a `spec` of a size and a color. */
export function sizedCrd(kind: string): { metadata: { name: string }; spec: unknown } {
  const singular = kind.toLowerCase();
  return JSON.parse(
    exampleCrd({ plural: `${singular}s`, singular, kind, listKind: `${kind}List` }, {
      type: "object",
      properties: { size: { type: "integer" }, color: { type: "string" } },
    }),
  );
}

export function sweepKinds(namespace: string, csr: string): SweepKind[] {
  const core = (kind: string, namespaced: boolean, fields: Record<string, unknown>, status?: Record<string, unknown>): SweepKind => ({
    api: "CoreV1Api",
    apiVersion: "v1",
    kind,
    namespaced,
    fields,
    status,
  });
  const of =
    (api: string, apiVersion: string) =>
    (kind: string, namespaced: boolean, fields: Record<string, unknown>, status?: Record<string, unknown>): SweepKind => ({
      api,
      apiVersion,
      kind,
      namespaced,
      fields,
      status,
    });
  const apps = of("AppsV1Api", "apps/v1");
  const storage = of("StorageV1Api", "storage.k8s.io/v1");
  const rbac = of("RbacAuthorizationV1Api", "rbac.authorization.k8s.io/v1");
  const networking = of("NetworkingV1Api", "networking.k8s.io/v1");
  const admission = of("AdmissionregistrationV1Api", "admissionregistration.k8s.io/v1");
  return [
    core("ConfigMap", true, { data: { k: "v" } }),
    core("Secret", true, { data: { k: "dg==" }, type: "Opaque" }),
    core("ServiceAccount", true, {}),
    core("Pod", true, { spec: POD_SPEC }, {
      phase: "Running",
      podIP: "10.0.0.5",
      startTime: NOW,
      conditions: [{ type: "Ready", status: "True", lastTransitionTime: NOW }],
      containerStatuses: [{
        name: "c",
        ready: true,
        restartCount: 0,
        image: "nginx:1.23",
        imageID: "i",
        state: { running: { startedAt: NOW } },
      }],
    }),
    core("Service", true, { spec: { selector: SWEEP_LABELS, ports: [{ port: 80 }] } }, {
      loadBalancer: { ingress: [{ ip: "192.0.2.1" }] },
    }),
    core("Endpoints", true, { subsets: [{ addresses: [{ ip: "10.0.0.5" }], ports: [{ port: 80 }] }] }),
    core("Event", true, {
      involvedObject: { kind: "Pod", name: "p", namespace },
      reason: "R",
      message: "m",
      type: "Normal",
      firstTimestamp: NOW,
      lastTimestamp: NOW,
      count: 1,
      action: "A",
      eventTime: NOW_MICRO,
      reportingComponent: "sweep",
      reportingInstance: "i",
    }),
    // The typed models name `default` `_default` and `x-kubernetes-*` `x_kubernetes_*`; the client sends only those names.
    core("LimitRange", true, { spec: { limits: [{ type: "Container", _default: { cpu: "200m" } }] } }),
    core("ResourceQuota", true, { spec: { hard: { pods: "10" } } }, { hard: { pods: "10" }, used: { pods: "1" } }),
    core("PersistentVolume", false, {
      spec: { capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce"], hostPath: { path: "/tmp/pv" } },
    }, {
      phase: "Available",
    }),
    core("PersistentVolumeClaim", true, { spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } }, {
      phase: "Bound",
      capacity: { storage: "1Gi" },
    }),
    core("PodTemplate", true, { template: TEMPLATE }),
    core("ReplicationController", true, { spec: { replicas: 1, selector: SWEEP_LABELS, template: TEMPLATE } }, {
      replicas: 1,
      readyReplicas: 1,
    }),
    core("Node", false, { spec: { podCIDR: "10.0.0.0/24" } }, {
      capacity: { cpu: "4", pods: "110" },
      allocatable: { cpu: "4", pods: "110" },
      addresses: [{ type: "InternalIP", address: "10.1.1.1" }],
      conditions: [{ type: "Ready", status: "True", lastHeartbeatTime: NOW, lastTransitionTime: NOW, reason: "KubeletReady" }],
    }),
    core("Namespace", false, {}),
    apps("ControllerRevision", true, { revision: 1, data: { spec: { template: TEMPLATE } } }),
    // deploymentStatusStrategy.PrepareForUpdate keeps the labels.
    {
      ...apps("Deployment", true, { spec: { replicas: 1, selector: SELECTOR, template: TEMPLATE } }, { replicas: 1, readyReplicas: 1 }),
      statusKeepsLabels: true,
    },
    apps("ReplicaSet", true, { spec: { replicas: 1, selector: SELECTOR, template: TEMPLATE } }, { replicas: 1 }),
    // The StatefulSet controller writes collisionCount (0 without collisions) with its first status, and a status
    // write that drops it is a decrement kube refuses (ValidateStatefulSetStatusUpdate, IsDecremented).
    apps("StatefulSet", true, { spec: { replicas: 1, serviceName: "s", selector: SELECTOR, template: TEMPLATE } }, {
      replicas: 1,
      collisionCount: 0,
    }),
    apps("DaemonSet", true, { spec: { selector: SELECTOR, template: TEMPLATE } }, { numberReady: 1 }),
    of("BatchV1Api", "batch/v1")("Job", true, { spec: { template: { spec: { ...POD_SPEC, restartPolicy: "Never" } } } }, {
      active: 1,
      startTime: NOW,
    }),
    of("BatchV1Api", "batch/v1")("CronJob", true, {
      spec: { schedule: "*/5 * * * *", jobTemplate: { spec: { template: { spec: { ...POD_SPEC, restartPolicy: "Never" } } } } },
    }, { lastScheduleTime: NOW }),
    of("AutoscalingV1Api", "autoscaling/v1")("HorizontalPodAutoscaler", true, { spec: HPA_TARGET }, {
      currentReplicas: 1,
      desiredReplicas: 1,
    }),
    of("AutoscalingV2Api", "autoscaling/v2")("HorizontalPodAutoscaler", true, {
      spec: {
        ...HPA_TARGET,
        metrics: [{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 80 } } }],
      },
    }, { currentReplicas: 1, desiredReplicas: 1 }),
    of("PolicyV1Api", "policy/v1")("PodDisruptionBudget", true, { spec: { minAvailable: 1, selector: SELECTOR } }, {
      currentHealthy: 1,
      desiredHealthy: 1,
      disruptionsAllowed: 0,
      expectedPods: 1,
    }),
    of("CoordinationV1Api", "coordination.k8s.io/v1")("Lease", true, { spec: { holderIdentity: "me", leaseDurationSeconds: 15 } }),
    of("DiscoveryV1Api", "discovery.k8s.io/v1")("EndpointSlice", true, {
      addressType: "IPv4",
      endpoints: [{ addresses: ["10.0.0.5"] }],
      ports: [{ port: 80 }],
    }),
    of("EventsV1Api", "events.k8s.io/v1")("Event", true, {
      eventTime: NOW_MICRO,
      reportingController: "sweep",
      reportingInstance: "i",
      action: "A",
      reason: "R",
      type: "Normal",
      regarding: { kind: "Pod", name: "p", namespace },
    }),
    networking("Ingress", true, { spec: { defaultBackend: { service: { name: "s", port: { number: 80 } } } } }, {
      loadBalancer: { ingress: [{ ip: "192.0.2.1" }] },
    }),
    networking("IngressClass", false, { spec: { controller: "example.com/ingress" } }),
    networking("NetworkPolicy", true, { spec: { podSelector: {}, policyTypes: ["Ingress"] } }),
    of("NodeV1Api", "node.k8s.io/v1")("RuntimeClass", false, { handler: "runc" }),
    rbac("Role", true, { rules: RULES }),
    rbac("ClusterRole", false, { rules: RULES }),
    rbac("RoleBinding", true, {
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "r" },
      subjects: [{ kind: "User", name: "u", apiGroup: "rbac.authorization.k8s.io" }],
    }),
    rbac("ClusterRoleBinding", false, {
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "r" },
      subjects: [{ kind: "ServiceAccount", name: "default", namespace }],
    }),
    of("SchedulingV1Api", "scheduling.k8s.io/v1")("PriorityClass", false, { value: 1000 }),
    storage("StorageClass", false, { provisioner: "example.com/p" }),
    storage("CSIDriver", false, { spec: {} }),
    storage("CSINode", false, { spec: { drivers: [{ name: "d.example.com", nodeID: "n" }] } }),
    storage("CSIStorageCapacity", true, { storageClassName: "sc", capacity: "1Gi" }),
    // volumeAttachmentStatusStrategy.PrepareForUpdate: metav1.ResetObjectMetaForStatus.
    {
      ...storage(
        "VolumeAttachment",
        false,
        { spec: { attacher: "d.example.com", nodeName: "n", source: { persistentVolumeName: "pv" } } },
        {
          attached: true,
        },
      ),
      statusKeepsLabels: true,
    },
    of("CertificatesV1Api", "certificates.k8s.io/v1")("CertificateSigningRequest", false, {
      spec: { request: csr, signerName: "example.com/s", usages: ["client auth"] },
    }),
    admission("ValidatingWebhookConfiguration", false, { webhooks: WEBHOOKS }),
    admission("MutatingWebhookConfiguration", false, { webhooks: WEBHOOKS }),
    of("ApiextensionsV1Api", "apiextensions.k8s.io/v1")("CustomResourceDefinition", false, { spec: sizedCrd("Widget").spec }),
    // apiServerStatusStrategy.PrepareForUpdate keeps labels, annotations, finalizers and ownerReferences.
    {
      statusKeepsLabels: true,
      ...of("ApiregistrationV1Api", "apiregistration.k8s.io/v1")("APIService", false, {
        spec: {
          group: "aggregated.example.com",
          version: "v1",
          groupPriorityMinimum: 1000,
          versionPriority: 15,
          service: { namespace, name: "s", port: 443 },
          insecureSkipTLSVerify: true,
        },
      }),
    },
  ];
}
