/**
 * Per-kind value rules (kube's Validate<Kind> and Validate<Kind>Update): each returns field errors that become one
 * 422 Invalid with a cause per field. Each kind's definition (../kind-facts.ts) names its create and update checks;
 * an update without its own check re-runs the create rules on the new object.
 */
import type { FieldError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { roleRefUnchanged } from "./rbac.ts";
export { validateAPIService } from "./apiservice.ts";
export { validateCertificateSigningRequest, validateCertificateSigningRequestUpdate } from "./certificate-signing-request.ts";
export {
  validateLease,
  validateNamespace,
  validatePersistentVolumeClaim,
  validatePriorityClass,
  validatePriorityClassUpdate,
  validateStorageClass,
  validateStorageClassUpdate,
} from "./cluster-objects.ts";
export { validateConfigMap, validateConfigMapUpdate } from "./configmap.ts";
export { validateCronJob } from "./cronjob.ts";
export { validateDaemonSet } from "./daemonset.ts";
export { validateEventCreate, validateEventUpdate } from "./event.ts";
export { validateDeployment, validateReplicaSet, withImmutableSelector } from "./deployment.ts";
export { flowControlUpdate, validateFlowSchema, validatePriorityLevelConfiguration } from "./flowcontrol.ts";
export { validateJob, validateJobUpdate } from "./job.ts";
export { validatePod, validatePodEphemeralContainersUpdate, validatePodUpdate } from "./pod.ts";
export { validatePodTemplateSpec } from "./_pod-spec.ts";
export { validateClusterRole, validateClusterRoleBinding, validateRole, validateRoleBinding } from "./rbac.ts";
export { validateReplicationController } from "./replication-controller.ts";
export { validateSecret, validateSecretUpdate } from "./secret.ts";
export { validateService, validateServiceUpdate } from "./service.ts";
export { validateStatefulSet, validateStatefulSetUpdate } from "./statefulset.ts";
export {
  validateDaemonSetStatusUpdate,
  validateDeploymentStatusUpdate,
  validateHorizontalPodAutoscalerStatusUpdate,
  validateJobStatusUpdate,
  validatePodDisruptionBudgetStatusUpdate,
  validateReplicaSetStatusUpdate,
  validateStatefulSetStatusUpdate,
} from "./status-updates.ts";
export { validateMutatingWebhookConfiguration, validateValidatingWebhookConfiguration } from "./webhook-configuration.ts";

/** A webhook clientConfig's rules (util/webhook ValidateWebhookURL/ValidateWebhookService), for CRD conversion too. */
export { validateClientConfig } from "./_webhook-client.ts";

export interface KindRules {
  create: (obj: KubeObject) => FieldError[];
  /** `subresource` is the path the update writes through ("" for the main resource). */
  update?: (obj: KubeObject, old: KubeObject, subresource: string) => FieldError[];
}

/** A binding's update rules: its create rules plus kube's "cannot change roleRef" (ValidateRoleBindingUpdate). */
export const withRoleRef =
  (validate: (obj: KubeObject) => FieldError[]) => (obj: KubeObject, old: KubeObject) => [...validate(obj), ...roleRefUnchanged(obj, old)];

/** The status subresource's rules (kube's <kind>StatusStrategy.ValidateUpdate): a status write is always an update. */
export const statusUpdateRules = (update: (obj: KubeObject, old: KubeObject) => FieldError[]): KindRules => ({ create: () => [], update });
