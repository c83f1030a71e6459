/** The built-in controllers, in start order; --controllers picks among them by name. */
import { bootstrapSigner, tokenCleaner } from "./bootstrap-tokens/mod.ts";
import { disruptionController } from "./disruption/disruption-controller.ts";
import { csrApprovingController, csrSigningController } from "./certificates/mod.ts";
import { endpointsController } from "./endpoints.ts";
import { endpointSliceController } from "./endpointslices.ts";
import { namespaceController } from "./namespace.ts";
import { nodeLifecycleController } from "./node-lifecycle/controller.ts";
import { rootCAPublisher } from "./root-ca-publisher.ts";
import type { Controller } from "./runtime/mod.ts";
import { serviceAccountController } from "./service-account.ts";
import { serviceAccountTokenController } from "./service-account-token.ts";
import { WORKLOAD_CONTROLLERS } from "./workloads/mod.ts";

export const BUILT_IN_CONTROLLERS: Controller[] = [
  namespaceController,
  serviceAccountController,
  serviceAccountTokenController,
  rootCAPublisher,
  ...WORKLOAD_CONTROLLERS,
  nodeLifecycleController,
  endpointsController,
  endpointSliceController,
  disruptionController,
  tokenCleaner,
  bootstrapSigner,
  csrApprovingController,
  csrSigningController,
];
export { apiServerId, type ApiServerIdentity, IDENTITY_LEASE_RENEW_INTERVAL_MS, startApiServerIdentity } from "./apiserver-identity.ts";
export { ensureSystemNamespaces } from "./bootstrap-namespaces.ts";
export { startClusterRoleAggregation } from "./cluster-role-aggregation.ts";
export { budgetSelects, disruptionAllowedCondition, type PdbStatus } from "./disruption/pdb-status.ts";
export { keepKubernetesService, type KubernetesServiceKeeper } from "./kubernetes-service.ts";
export { ensureBootstrapPolicy } from "./rbac-bootstrap.ts";
export { bindPod } from "./scheduler/binding.ts";
export { containerRunning, logUnavailableReason, simulatedLog } from "./simulated-nodes/container-logs.ts";
export { SIMULATED_NODE_LABEL } from "./simulated-nodes/node-object.ts";
export { checkControllerFlag, type RunningControllers, startControllers } from "./start.ts";
export type { LeaderLock } from "./runtime/mod.ts";
export { startGarbageCollector } from "./gc/garbage-collector.ts";
export { controllerClient } from "./workloads/mod.ts";
