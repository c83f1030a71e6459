/**
 * Go pointer scalars whose explicit zero differs from unset (`replicas: 0`, `runAsUser: 0`). Protobuf cannot
 * tell them from omitempty scalars, whose zero kube's JSON drops, so the codec keeps a zero only for these.
 * Facts from k8s.io/api 1.26 types.go; the list covers fields clients commonly set to zero.
 */
const CORE = "k8s.io.api.core.v1";
const APPS = "k8s.io.api.apps.v1";
const BATCH = "k8s.io.api.batch.v1";
const META = "k8s.io.apimachinery.pkg.apis.meta.v1";
const SCHEMA = "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps";

export const POINTER_SCALARS_WITH_MEANINGFUL_ZERO: ReadonlySet<string> = new Set([
  `${APPS}.DeploymentSpec.replicas`,
  `${APPS}.DeploymentSpec.revisionHistoryLimit`,
  `${APPS}.DeploymentSpec.progressDeadlineSeconds`,
  `${APPS}.ReplicaSetSpec.replicas`,
  `${APPS}.StatefulSetSpec.replicas`,
  `${APPS}.StatefulSetSpec.revisionHistoryLimit`,
  `${APPS}.DaemonSetSpec.revisionHistoryLimit`,
  `${CORE}.ReplicationControllerSpec.replicas`,
  `${BATCH}.JobSpec.parallelism`,
  `${BATCH}.JobSpec.completions`,
  `${BATCH}.JobSpec.backoffLimit`,
  `${BATCH}.JobSpec.ttlSecondsAfterFinished`,
  `${BATCH}.JobSpec.activeDeadlineSeconds`,
  `${BATCH}.JobSpec.manualSelector`,
  `${BATCH}.JobSpec.suspend`,
  `${BATCH}.JobStatus.ready`,
  `${BATCH}.CronJobSpec.startingDeadlineSeconds`,
  `${BATCH}.CronJobSpec.suspend`,
  `${BATCH}.CronJobSpec.successfulJobsHistoryLimit`,
  `${BATCH}.CronJobSpec.failedJobsHistoryLimit`,
  `${CORE}.PodSpec.terminationGracePeriodSeconds`,
  `${CORE}.PodSpec.automountServiceAccountToken`,
  `${CORE}.PodSpec.enableServiceLinks`,
  `${CORE}.PodSpec.priority`,
  `${CORE}.ServiceAccount.automountServiceAccountToken`,
  `${CORE}.ServiceSpec.allocateLoadBalancerNodePorts`,
  `${CORE}.ConfigMap.immutable`,
  `${CORE}.Secret.immutable`,
  `${CORE}.SecurityContext.runAsUser`,
  `${CORE}.SecurityContext.runAsGroup`,
  `${CORE}.SecurityContext.runAsNonRoot`,
  `${CORE}.SecurityContext.privileged`,
  `${CORE}.SecurityContext.allowPrivilegeEscalation`,
  `${CORE}.SecurityContext.readOnlyRootFilesystem`,
  `${CORE}.PodSecurityContext.runAsUser`,
  `${CORE}.PodSecurityContext.runAsGroup`,
  `${CORE}.PodSecurityContext.runAsNonRoot`,
  `${CORE}.PodSecurityContext.fsGroup`,
  `${META}.DeleteOptions.gracePeriodSeconds`,
  `${META}.DeleteOptions.orphanDependents`,
  `${META}.ObjectMeta.deletionGracePeriodSeconds`,
  ...["maximum", "minimum", "multipleOf", "maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties"]
    .map((field) => `${SCHEMA}.${field}`),
  `${SCHEMA}.xKubernetesPreserveUnknownFields`,
]);
