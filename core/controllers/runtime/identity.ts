/**
 * The identity each control loop writes with. kube-controller-manager with --use-service-account-credentials
 * gives every loop its own service account in kube-system (the name each start function passes to
 * ClientBuilder.ClientOrDie in cmd/kube-controller-manager/app), bound to its system:controller:<name>
 * ClusterRole by the bootstrap policy; the few loops built on the root client run as the manager itself.
 */
import { serviceAccountGroups, serviceAccountUsername } from "../../auth/service-account/claims.ts";
import { AUTHENTICATED_GROUP, type UserInfo } from "../../auth/user.ts";

const CONTROLLER_NAMESPACE = "kube-system";

/** --controllers name → the service account its client is built for (kube 1.26's ClientOrDie arguments). */
const SERVICE_ACCOUNT_OF: Record<string, string> = {
  attachdetach: "attachdetach-controller",
  bootstrapsigner: "bootstrap-signer",
  "clusterrole-aggregation": "clusterrole-aggregation-controller",
  cronjob: "cronjob-controller",
  csrapproving: "certificate-controller",
  csrcleaner: "certificate-controller",
  csrsigning: "certificate-controller",
  daemonset: "daemon-set-controller",
  deployment: "deployment-controller",
  disruption: "disruption-controller",
  endpoint: "endpoint-controller",
  endpointslice: "endpointslice-controller",
  endpointslicemirroring: "endpointslicemirroring-controller",
  "ephemeral-volume": "ephemeral-volume-controller",
  garbagecollector: "generic-garbage-collector",
  horizontalpodautoscaling: "horizontal-pod-autoscaler",
  job: "job-controller",
  namespace: "namespace-controller",
  nodeipam: "node-controller",
  nodelifecycle: "node-controller",
  "persistentvolume-binder": "persistent-volume-binder",
  "persistentvolume-expander": "expand-controller",
  podgc: "pod-garbage-collector",
  "pv-protection": "pv-protection-controller",
  "pvc-protection": "pvc-protection-controller",
  replicaset: "replicaset-controller",
  replicationcontroller: "replication-controller",
  resourcequota: "resourcequota-controller",
  "root-ca-cert-publisher": "root-ca-cert-publisher",
  route: "route-controller",
  service: "service-controller",
  serviceaccount: "service-account-controller",
  statefulset: "statefulset-controller",
  tokencleaner: "token-cleaner",
  ttl: "ttl-controller",
  "ttl-after-finished": "ttl-after-finished-controller",
};

/** kube's user for the manager's root client (bootstrap role system:kube-controller-manager). */
export const KUBE_CONTROLLER_MANAGER_USER: UserInfo = { username: "system:kube-controller-manager", groups: [AUTHENTICATED_GROUP] };

/** Users that are not a controller-manager loop: kube's scheduler, and the simulated kubelets (a test fixture acting with cluster-admin). */
const OTHER_USERS: Record<string, UserInfo> = {
  // The tokens controller is started with the root client builder (startServiceAccountTokenController).
  "serviceaccount-token": KUBE_CONTROLLER_MANAGER_USER,
  scheduler: { username: "system:kube-scheduler", groups: [AUTHENTICATED_GROUP] },
  "simulated-nodes": { username: "kubun:simulated-kubelets", groups: ["system:masters", AUTHENTICATED_GROUP] },
};

/** The service account a controller's client uses; a name kube does not know is its own account's name. */
export function controllerServiceAccount(controller: string): string {
  return SERVICE_ACCOUNT_OF[controller] ?? controller;
}

/** The service account a controller runs as, or undefined for one that runs as a plain user (scheduler, root client). */
export function controllerServiceAccountRef(name: string): { namespace: string; name: string } | undefined {
  return name in OTHER_USERS ? undefined : { namespace: CONTROLLER_NAMESPACE, name: controllerServiceAccount(name) };
}

/** Who a controller registered under `name` writes as. */
export function controllerUser(name: string): UserInfo {
  return OTHER_USERS[name] ?? {
    username: serviceAccountUsername(CONTROLLER_NAMESPACE, controllerServiceAccount(name)),
    groups: [...serviceAccountGroups(CONTROLLER_NAMESPACE), AUTHENTICATED_GROUP],
  };
}
