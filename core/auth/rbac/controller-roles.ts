/**
 * kube-apiserver 1.26's controller roles (bootstrappolicy buildControllerRoles, default feature gates): one
 * ClusterRole system:controller:<account> per kube-controller-manager loop, bound to the service account
 * kube-system/<account> the loop's client runs as; plus the kube-system and kube-public Roles of
 * namespace_policy.go for the bootstrap-signer, token-cleaner and leader locking. Facts only, as data.
 */
import type { PolicyRule } from "./policy-types.ts";

export const CONTROLLER_ROLE_PREFIX = "system:controller:";

const READ = ["get", "list", "watch"];
const r = (verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule =>
  resourceNames ? { apiGroups, resources, resourceNames, verbs } : { apiGroups, resources, verbs };
/** kube's eventsRule(). */
const events = r(["create", "update", "patch"], ["", "events.k8s.io"], ["events"]);
const APPS = ["apps", "extensions"];

/** Service account name (the role is system:controller:<name>) → rules. */
export const CONTROLLER_ROLES: Record<string, PolicyRule[]> = {
  "attachdetach-controller": [
    r(["list", "watch"], [""], ["persistentvolumes", "persistentvolumeclaims"]),
    r(READ, [""], ["nodes"]),
    r(["patch", "update"], [""], ["nodes/status"]),
    r(["list", "watch"], [""], ["pods"]),
    events,
    r(["get", "create", "delete", "list", "watch"], ["storage.k8s.io"], ["volumeattachments"]),
    r(["get", "watch", "list"], ["storage.k8s.io"], ["csidrivers"]),
    r(["get", "watch", "list"], ["storage.k8s.io"], ["csinodes"]),
  ],
  "clusterrole-aggregation-controller": [
    r(["escalate", "get", "list", "watch", "update", "patch"], ["rbac.authorization.k8s.io"], ["clusterroles"]),
  ],
  "cronjob-controller": [
    r(["get", "list", "watch", "update"], ["batch"], ["cronjobs"]),
    r(["get", "list", "watch", "create", "update", "delete", "patch"], ["batch"], ["jobs"]),
    r(["update"], ["batch"], ["cronjobs/status"]),
    r(["update"], ["batch"], ["cronjobs/finalizers"]),
    r(["list", "watch", "delete"], [""], ["pods"]),
    events,
  ],
  "daemon-set-controller": [
    r(READ, APPS, ["daemonsets"]),
    r(["update"], APPS, ["daemonsets/status"]),
    r(["update"], APPS, ["daemonsets/finalizers"]),
    r(["list", "watch"], [""], ["nodes"]),
    r(["list", "watch", "create", "delete", "patch"], [""], ["pods"]),
    r(["create"], [""], ["pods/binding"]),
    r(["get", "list", "watch", "create", "delete", "update", "patch"], ["apps"], ["controllerrevisions"]),
    events,
  ],
  "deployment-controller": [
    r(["get", "list", "watch", "update"], APPS, ["deployments"]),
    r(["update"], APPS, ["deployments/status"]),
    r(["update"], APPS, ["deployments/finalizers"]),
    r(["get", "list", "watch", "create", "update", "patch", "delete"], ["apps", "extensions"], ["replicasets"]),
    r(["get", "list", "watch", "update"], [""], ["pods"]),
    events,
  ],
  "disruption-controller": [
    r(READ, APPS, ["deployments"]),
    r(READ, ["apps", "extensions"], ["replicasets"]),
    r(READ, [""], ["replicationcontrollers"]),
    r(READ, ["policy"], ["poddisruptionbudgets"]),
    r(READ, ["apps"], ["statefulsets"]),
    r(["update"], ["policy"], ["poddisruptionbudgets/status"]),
    r(["patch", "update"], [""], ["pods/status"]),
    r(["get"], ["*"], ["*/scale"]),
    events,
  ],
  "endpoint-controller": [
    r(READ, [""], ["services", "pods"]),
    r(["get", "list", "watch", "create", "update", "delete"], [""], ["endpoints"]),
    r(["create"], [""], ["endpoints/restricted"]),
    events,
  ],
  "endpointslice-controller": [
    r(READ, [""], ["services", "pods", "nodes"]),
    r(["update"], [""], ["services/finalizers"]),
    r(["get", "list", "watch", "create", "update", "delete"], ["discovery.k8s.io"], ["endpointslices"]),
    events,
  ],
  "endpointslicemirroring-controller": [
    r(READ, [""], ["services", "endpoints"]),
    r(["update"], [""], ["services/finalizers"]),
    r(["update"], [""], ["endpoints/finalizers"]),
    r(["get", "list", "watch", "create", "update", "delete"], ["discovery.k8s.io"], ["endpointslices"]),
    events,
  ],
  "expand-controller": [
    r(["get", "list", "watch", "update", "patch"], [""], ["persistentvolumes"]),
    r(["update", "patch"], [""], ["persistentvolumeclaims/status"]),
    r(READ, [""], ["persistentvolumeclaims"]),
    events,
    r(["get"], [""], ["services"]),
  ],
  "ephemeral-volume-controller": [
    r(READ, [""], ["pods"]),
    r(["update"], [""], ["pods/finalizers"]),
    r(["get", "list", "watch", "create"], [""], ["persistentvolumeclaims"]),
    events,
  ],
  "generic-garbage-collector": [r(["get", "list", "watch", "patch", "update", "delete"], ["*"], ["*"]), events],
  "horizontal-pod-autoscaler": [
    r(READ, ["autoscaling"], ["horizontalpodautoscalers"]),
    r(["update"], ["autoscaling"], ["horizontalpodautoscalers/status"]),
    r(["get", "update"], ["*"], ["*/scale"]),
    r(["list", "watch"], [""], ["pods"]),
    r(["list", "watch"], ["metrics.k8s.io"], ["pods"]),
    r(READ, ["custom.metrics.k8s.io"], ["*"]),
    r(READ, ["external.metrics.k8s.io"], ["*"]),
    events,
  ],
  "job-controller": [
    r(["get", "list", "watch", "update", "patch"], ["batch"], ["jobs"]),
    r(["update"], ["batch"], ["jobs/status"]),
    r(["update"], ["batch"], ["jobs/finalizers"]),
    r(["list", "watch", "create", "delete", "patch"], [""], ["pods"]),
    events,
  ],
  "namespace-controller": [
    r(["get", "list", "watch", "delete"], [""], ["namespaces"]),
    r(["update"], [""], ["namespaces/finalize", "namespaces/status"]),
    r(["get", "list", "watch", "delete", "deletecollection"], ["*"], ["*"]),
  ],
  "node-controller": [
    r(["get", "list", "watch", "update", "delete", "patch"], [""], ["nodes"]),
    r(["patch", "update"], [""], ["nodes/status"]),
    r(["patch", "update"], [""], ["pods/status"]),
    r(["list", "watch", "get", "delete"], [""], ["pods"]),
    events,
  ],
  "persistent-volume-binder": [
    r(["get", "list", "watch", "update", "create", "delete"], [""], ["persistentvolumes"]),
    r(["update"], [""], ["persistentvolumes/status"]),
    r(["get", "list", "watch", "update"], [""], ["persistentvolumeclaims"]),
    r(["update"], [""], ["persistentvolumeclaims/status"]),
    r(["list", "watch", "get", "create", "delete"], [""], ["pods"]),
    r(READ, ["storage.k8s.io"], ["storageclasses"]),
    r(["list", "watch"], [""], ["nodes"]),
    events,
    r(["watch"], [""], ["events"]),
    r(["get"], [""], ["services"]),
  ],
  "pod-garbage-collector": [r(["list", "watch", "delete"], [""], ["pods"]), r(READ, [""], ["nodes"]), r(["patch"], [""], ["pods/status"])],
  "replicaset-controller": [
    r(["get", "list", "watch", "update"], ["apps", "extensions"], ["replicasets"]),
    r(["update"], ["apps", "extensions"], ["replicasets/status"]),
    r(["update"], ["apps", "extensions"], ["replicasets/finalizers"]),
    r(["list", "watch", "patch", "create", "delete"], [""], ["pods"]),
    events,
  ],
  "replication-controller": [
    r(["get", "list", "watch", "update"], [""], ["replicationcontrollers"]),
    r(["update"], [""], ["replicationcontrollers/status"]),
    r(["update"], [""], ["replicationcontrollers/finalizers"]),
    r(["list", "watch", "patch", "create", "delete"], [""], ["pods"]),
    events,
  ],
  "resourcequota-controller": [r(["list", "watch"], ["*"], ["*"]), r(["update"], [""], ["resourcequotas/status"]), events],
  "route-controller": [r(["list", "watch"], [""], ["nodes"]), r(["patch"], [""], ["nodes/status"]), events],
  "service-account-controller": [r(["create"], [""], ["serviceaccounts"]), events],
  "service-controller": [
    r(READ, [""], ["services"]),
    r(["patch", "update"], [""], ["services/status"]),
    r(["list", "watch"], [""], ["nodes"]),
    events,
  ],
  "statefulset-controller": [
    r(["list", "watch"], [""], ["pods"]),
    r(READ, ["apps"], ["statefulsets"]),
    r(["update"], ["apps"], ["statefulsets/status"]),
    r(["update"], ["apps"], ["statefulsets/finalizers"]),
    r(["get", "create", "delete", "update", "patch"], [""], ["pods"]),
    r(["get", "create", "delete", "update", "patch", "list", "watch"], ["apps"], ["controllerrevisions"]),
    r(["get", "create", "list", "watch"], [""], ["persistentvolumeclaims"]),
    r(["update", "delete"], [""], ["persistentvolumeclaims"]),
    r(["update"], [""], ["pods/finalizers"]),
    events,
  ],
  "ttl-controller": [r(["update", "patch", "list", "watch"], [""], ["nodes"]), events],
  "certificate-controller": [
    r(["get", "list", "watch", "delete"], ["certificates.k8s.io"], ["certificatesigningrequests"]),
    r(["update"], ["certificates.k8s.io"], ["certificatesigningrequests/status", "certificatesigningrequests/approval"]),
    r(["approve"], ["certificates.k8s.io"], ["signers"], ["kubernetes.io/kube-apiserver-client-kubelet"]),
    r(["sign"], ["certificates.k8s.io"], ["signers"], [
      "kubernetes.io/legacy-unknown",
      "kubernetes.io/kube-apiserver-client",
      "kubernetes.io/kube-apiserver-client-kubelet",
      "kubernetes.io/kubelet-serving",
    ]),
    r(["create"], ["authorization.k8s.io"], ["subjectaccessreviews"]),
    events,
  ],
  "pvc-protection-controller": [
    r(["get", "list", "watch", "update"], [""], ["persistentvolumeclaims"]),
    r(["list", "watch", "get"], [""], ["pods"]),
    events,
  ],
  "pv-protection-controller": [r(["get", "list", "watch", "update"], [""], ["persistentvolumes"]), events],
  "ttl-after-finished-controller": [r(["get", "list", "watch", "delete"], ["batch"], ["jobs"]), events],
  "root-ca-cert-publisher": [r(["create", "update"], [""], ["configmaps"]), events],
};

export interface NamespacedBootstrapRole {
  namespace: string;
  name: string;
  rules: PolicyRule[];
}

export interface NamespacedBootstrapBinding {
  namespace: string;
  name: string;
  role: string;
  subjects: { kind: "User" | "ServiceAccount"; name: string; namespace?: string }[];
}

/** namespace_policy.go's Roles. */
export const NAMESPACED_BOOTSTRAP_ROLES: NamespacedBootstrapRole[] = [
  {
    namespace: "kube-system",
    name: "extension-apiserver-authentication-reader",
    rules: [r(READ, [""], ["configmaps"], ["extension-apiserver-authentication"])],
  },
  { namespace: "kube-system", name: `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, rules: [r(READ, [""], ["secrets"])] },
  {
    namespace: "kube-system",
    name: `${CONTROLLER_ROLE_PREFIX}cloud-provider`,
    rules: [r(["create", "get", "list", "watch"], [""], ["configmaps"])],
  },
  {
    namespace: "kube-system",
    name: `${CONTROLLER_ROLE_PREFIX}token-cleaner`,
    rules: [r(["get", "list", "watch", "delete"], [""], ["secrets"]), events],
  },
  {
    namespace: "kube-system",
    name: "system::leader-locking-kube-controller-manager",
    rules: [r(["watch"], [""], ["configmaps"]), r(["get", "update"], [""], ["configmaps"], ["kube-controller-manager"])],
  },
  {
    namespace: "kube-system",
    name: "system::leader-locking-kube-scheduler",
    rules: [r(["watch"], [""], ["configmaps"]), r(["get", "update"], [""], ["configmaps"], ["kube-scheduler"])],
  },
  {
    namespace: "kube-public",
    name: `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`,
    rules: [r(READ, [""], ["configmaps"]), r(["update"], [""], ["configmaps"], ["cluster-info"]), events],
  },
];

const sa = (name: string) => ({ kind: "ServiceAccount" as const, name, namespace: "kube-system" });
const user = (name: string) => ({ kind: "User" as const, name });

/** namespace_policy.go's RoleBindings. */
export const NAMESPACED_BOOTSTRAP_BINDINGS: NamespacedBootstrapBinding[] = [
  {
    namespace: "kube-system",
    name: "system::extension-apiserver-authentication-reader",
    role: "extension-apiserver-authentication-reader",
    subjects: [user("system:kube-controller-manager"), user("system:kube-scheduler")],
  },
  {
    namespace: "kube-system",
    name: "system::leader-locking-kube-controller-manager",
    role: "system::leader-locking-kube-controller-manager",
    subjects: [user("system:kube-controller-manager"), sa("kube-controller-manager")],
  },
  {
    namespace: "kube-system",
    name: "system::leader-locking-kube-scheduler",
    role: "system::leader-locking-kube-scheduler",
    subjects: [user("system:kube-scheduler"), sa("kube-scheduler")],
  },
  {
    namespace: "kube-system",
    name: `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`,
    role: `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`,
    subjects: [sa("bootstrap-signer")],
  },
  {
    namespace: "kube-system",
    name: `${CONTROLLER_ROLE_PREFIX}cloud-provider`,
    role: `${CONTROLLER_ROLE_PREFIX}cloud-provider`,
    subjects: [sa("cloud-provider")],
  },
  {
    namespace: "kube-system",
    name: `${CONTROLLER_ROLE_PREFIX}token-cleaner`,
    role: `${CONTROLLER_ROLE_PREFIX}token-cleaner`,
    subjects: [sa("token-cleaner")],
  },
  {
    namespace: "kube-public",
    name: `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`,
    role: `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`,
    subjects: [sa("bootstrap-signer")],
  },
];
