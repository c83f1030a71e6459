/**
 * Objects of built-in kinds from several groups that set Go pointer scalars to their zero (`runAsUser: 0`,
 * `attachRequired: false`, `storageClassName: ""`): kube keeps each of them through protobuf, so reading one back
 * must give what was written. Every value passes kube 1.26's validation, so servers accept them as they are.
 */

export type SampleObject =
  & { apiVersion: string; kind: string; metadata: { name: string } & Record<string, unknown> }
  & Record<string, unknown>;

const container = {
  name: "app",
  image: "registry.example/app:1",
  securityContext: {
    privileged: false,
    runAsUser: 0,
    runAsGroup: 0,
    runAsNonRoot: false,
    readOnlyRootFilesystem: false,
    allowPrivilegeEscalation: false,
  },
  envFrom: [{ configMapRef: { name: "settings", optional: false } }],
  env: [{ name: "TOKEN", valueFrom: { secretKeyRef: { name: "creds", key: "token", optional: false } } }],
};

const autoscaler = {
  apiVersion: "autoscaling/v2",
  kind: "HorizontalPodAutoscaler",
  metadata: { name: "zeros" },
  spec: {
    scaleTargetRef: { apiVersion: "apps/v1", kind: "StatefulSet", name: "zeros" },
    minReplicas: 1,
    maxReplicas: 3,
    behavior: {
      scaleUp: { stabilizationWindowSeconds: 0 },
      scaleDown: { stabilizationWindowSeconds: 0 },
    },
  },
};

export const POINTER_ZERO_OBJECTS: SampleObject[] = [
  {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "zeros" },
    spec: {
      containers: [container],
      securityContext: { runAsUser: 0, runAsGroup: 0, runAsNonRoot: false, fsGroup: 0 },
      terminationGracePeriodSeconds: 0,
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      shareProcessNamespace: false,
      setHostnameAsFQDN: false,
      tolerations: [{ key: "example.com/drain", operator: "Exists", effect: "NoExecute", tolerationSeconds: 0 }],
      volumes: [
        { name: "settings", configMap: { name: "settings", defaultMode: 0, optional: false } },
        { name: "creds", secret: { secretName: "creds", defaultMode: 0, optional: false, items: [{ key: "k", path: "k", mode: 0 }] } },
      ],
    },
  },
  {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "zeros" },
    spec: { type: "LoadBalancer", allocateLoadBalancerNodePorts: false, ports: [{ port: 80, protocol: "TCP" }] },
  },
  {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name: "zeros" },
    spec: {
      storageClassName: "",
      volumeMode: "Filesystem",
      accessModes: ["ReadWriteOnce"],
      resources: { requests: { storage: "1Gi" } },
    },
  },
  { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "zeros" }, immutable: false },
  {
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: { name: "zeros" },
    spec: {
      replicas: 0,
      revisionHistoryLimit: 0,
      serviceName: "zeros",
      selector: { matchLabels: { app: "zeros" } },
      updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: 0 } },
      template: { metadata: { labels: { app: "zeros" } }, spec: { containers: [{ name: "app", image: "registry.example/app:1" }] } },
    },
  },
  autoscaler,
  {
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: { name: "zeros" },
    spec: { holderIdentity: "", leaseTransitions: 0 },
  },
  {
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: { name: "zeros" },
    addressType: "IPv4",
    endpoints: [{ addresses: ["10.0.0.9"], conditions: { ready: false, serving: false, terminating: false } }],
    ports: [{ name: "", port: 8080, protocol: "TCP" }],
  },
  {
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: { name: "zeros" },
    spec: { maxUnavailable: 0, selector: { matchLabels: { app: "zeros" } } },
  },
  {
    apiVersion: "storage.k8s.io/v1",
    kind: "CSIDriver",
    metadata: { name: "zeros.csi.example.com" },
    spec: { attachRequired: false, podInfoOnMount: false, storageCapacity: false, requiresRepublish: false },
  },
  {
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: { name: "zeros" },
    provisioner: "zeros.csi.example.com",
    allowVolumeExpansion: false,
  },
  {
    apiVersion: "flowcontrol.apiserver.k8s.io/v1beta3",
    kind: "PriorityLevelConfiguration",
    metadata: { name: "zeros" },
    spec: {
      type: "Limited",
      limited: {
        nominalConcurrencyShares: 5,
        lendablePercent: 0,
        borrowingLimitPercent: 0,
        limitResponse: { type: "Reject" },
      },
    },
  },
];

/**
 * Pointer zeros that kube's validation refuses, or (the ConfigMap) whose owner is missing so a server's garbage
 * collector deletes it: only the codec's own tests carry them.
 */
export const CODEC_ONLY_POINTER_ZEROS: SampleObject[] = [
  {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: {
      name: "owned",
      ownerReferences: [{
        apiVersion: "v1",
        kind: "ConfigMap",
        name: "owner",
        uid: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
        controller: false,
        blockOwnerDeletion: false,
      }],
    },
    immutable: false,
  },
  {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingWebhookConfiguration",
    metadata: { name: "zeros" },
    webhooks: [{
      name: "zeros.example.com",
      clientConfig: { service: { namespace: "default", name: "hook", path: "", port: 0 } },
      rules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"], scope: "" }],
      sideEffects: "",
      timeoutSeconds: 0,
      admissionReviewVersions: ["v1"],
    }],
  },
  {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: "zeros" },
    spec: { podSelector: {}, ingress: [{ ports: [{ protocol: "TCP", port: 80, endPort: 0 }] }] },
  },
  {
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: { name: "zeros" },
    spec: { ingressClassName: "" },
  },
  {
    ...autoscaler,
    metadata: { name: "scale-to-zero" },
    spec: {
      ...autoscaler.spec,
      minReplicas: 0,
      metrics: [{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 0 } } }],
    },
  },
  {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
      versions: [{
        name: "v1",
        served: true,
        storage: true,
        deprecationWarning: "",
        schema: {
          openAPIV3Schema: {
            type: "object",
            "x-kubernetes-preserve-unknown-fields": false,
            properties: { size: { type: "integer", minimum: 0, maximum: 0 } },
          },
        },
        subresources: { scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: "" } },
      }],
    },
  },
  {
    apiVersion: "batch/v1",
    kind: "CronJob",
    metadata: { name: "zeros" },
    spec: { schedule: "* * * * *", timeZone: "", jobTemplate: { spec: { template: {} } } },
  },
];
