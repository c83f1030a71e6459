/**
 * Per-kind value rules (kube's Validate<Kind> and Validate<Kind>Update): each returns field errors that become one
 * 422 Invalid with a cause per field. The table maps `<group>/<resource>` to the kind's create and update checks;
 * an update without its own check re-runs the create rules on the new object.
 */
import type { FieldError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import type { ResourceType } from "../resource-type.ts";
import { validateAPIService } from "./apiservice.ts";
import { validateCertificateSigningRequest, validateCertificateSigningRequestUpdate } from "./certificate-signing-request.ts";
import { validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate } from "../../crd/validation.ts";
import {
  validateLease,
  validateNamespace,
  validatePersistentVolumeClaim,
  validatePriorityClass,
  validatePriorityClassUpdate,
  validateStorageClass,
  validateStorageClassUpdate,
} from "./cluster-objects.ts";
import { validateConfigMap, validateConfigMapUpdate } from "./configmap.ts";
import { validateCronJob } from "./cronjob.ts";
import { validateDaemonSet } from "./daemonset.ts";
import { validateDeployment, validateReplicaSet, withImmutableSelector } from "./deployment.ts";
import { validateJob, validateJobUpdate } from "./job.ts";
import { validatePod, validatePodEphemeralContainersUpdate, validatePodUpdate } from "./pod.ts";
import { validatePodTemplateSpec } from "./_pod-spec.ts";
import { roleRefUnchanged, validateClusterRole, validateClusterRoleBinding, validateRole, validateRoleBinding } from "./rbac.ts";
import { validateReplicationController } from "./replication-controller.ts";
import { validateSecret, validateSecretUpdate } from "./secret.ts";
import { validateService, validateServiceUpdate } from "./service.ts";
import { validateStatefulSet, validateStatefulSetUpdate } from "./statefulset.ts";
import { validateMutatingWebhookConfiguration, validateValidatingWebhookConfiguration } from "./webhook-configuration.ts";

/** A webhook clientConfig's rules (util/webhook ValidateWebhookURL/ValidateWebhookService), for CRD conversion too. */
export { validateClientConfig } from "./_webhook-client.ts";

export interface KindRules {
  create: (obj: KubeObject) => FieldError[];
  /** `subresource` is the path the update writes through ("" for the main resource). */
  update?: (obj: KubeObject, old: KubeObject, subresource: string) => FieldError[];
}

const withRoleRef =
  (validate: (obj: KubeObject) => FieldError[]) => (obj: KubeObject, old: KubeObject) => [...validate(obj), ...roleRefUnchanged(obj, old)];

const RULES: Record<string, KindRules> = {
  "/pods": { create: validatePod, update: validatePodUpdate },
  "/pods/ephemeralcontainers": { create: validatePod, update: validatePodEphemeralContainersUpdate },
  "/podtemplates": { create: (obj) => validatePodTemplateSpec(obj.template, "template") },
  "/replicationcontrollers": { create: validateReplicationController },
  "/services": { create: validateService, update: validateServiceUpdate },
  "/secrets": { create: validateSecret, update: validateSecretUpdate },
  "/configmaps": { create: validateConfigMap, update: validateConfigMapUpdate },
  "/namespaces": { create: validateNamespace },
  "/persistentvolumeclaims": { create: validatePersistentVolumeClaim },
  "apps/deployments": { create: validateDeployment, update: withImmutableSelector(validateDeployment) },
  "apps/replicasets": { create: validateReplicaSet, update: withImmutableSelector(validateReplicaSet) },
  "apps/daemonsets": { create: validateDaemonSet, update: withImmutableSelector(validateDaemonSet) },
  "apps/statefulsets": { create: validateStatefulSet, update: validateStatefulSetUpdate },
  "batch/jobs": { create: validateJob, update: validateJobUpdate },
  "batch/cronjobs": { create: validateCronJob },
  "apiregistration.k8s.io/apiservices": { create: validateAPIService },
  "apiextensions.k8s.io/customresourcedefinitions": {
    create: validateCustomResourceDefinition,
    update: validateCustomResourceDefinitionUpdate,
  },
  "admissionregistration.k8s.io/validatingwebhookconfigurations": {
    create: (obj) => validateValidatingWebhookConfiguration(obj),
    update: validateValidatingWebhookConfiguration,
  },
  "admissionregistration.k8s.io/mutatingwebhookconfigurations": {
    create: (obj) => validateMutatingWebhookConfiguration(obj),
    update: validateMutatingWebhookConfiguration,
  },
  "rbac.authorization.k8s.io/roles": { create: validateRole },
  "rbac.authorization.k8s.io/clusterroles": { create: validateClusterRole },
  "rbac.authorization.k8s.io/rolebindings": { create: validateRoleBinding, update: withRoleRef(validateRoleBinding) },
  "rbac.authorization.k8s.io/clusterrolebindings": { create: validateClusterRoleBinding, update: withRoleRef(validateClusterRoleBinding) },
  "scheduling.k8s.io/priorityclasses": { create: validatePriorityClass, update: validatePriorityClassUpdate },
  "storage.k8s.io/storageclasses": { create: validateStorageClass, update: validateStorageClassUpdate },
  "coordination.k8s.io/leases": { create: validateLease },
  "certificates.k8s.io/certificatesigningrequests": {
    create: validateCertificateSigningRequest,
    update: validateCertificateSigningRequestUpdate,
  },
};

/** `old` is the stored object on update, absent on create. */
/** A subresource with rules of its own (pods/ephemeralcontainers) uses them; others use the kind's. */
export function validateKind(type: ResourceType, obj: KubeObject, old?: KubeObject, subresource = ""): FieldError[] {
  const rules = (subresource ? RULES[`${type.group}/${type.resource}/${subresource}`] : undefined) ??
    RULES[`${type.group}/${type.resource}`];
  if (!rules) return [];
  return old && rules.update ? rules.update(obj, old, subresource) : rules.create(obj);
}
