/**
 * The workload control loops as runtime Controllers, under kube-controller-manager's names (so --controllers
 * and leader election apply), plus kubun's scheduler and, with --simulated-nodes, the simulated kubelets.
 * Each is a level-triggered loop (loop.ts) stopped when the controller's signal aborts.
 */
import { startGarbageCollector } from "../gc/garbage-collector.ts";
import type { Controller, ControllerContext } from "../runtime/mod.ts";
import { startScheduler } from "../scheduler/scheduler.ts";
import { startSimulatedNodes } from "../simulated-nodes/simulated-nodes.ts";
import { type ControllerClient, controllerClient, REPLICA_SETS, REPLICATION_CONTROLLERS } from "./client.ts";
import { startCronJobController } from "./cronjob-controller.ts";
import { startDaemonSetController } from "./daemonset-controller.ts";
import { startDeploymentController } from "./deployment-controller.ts";
import { startJobController } from "./job-controller.ts";
import type { ControlLoop } from "./loop.ts";
import { startReplicaSetController } from "./replicaset-controller.ts";
import { startStatefulSetController } from "./statefulset-controller.ts";

const CONTROLLER_MANAGER = "kube-controller-manager";

function loopController(
  name: string,
  fieldManager: string,
  start: (client: ControllerClient, ctx: ControllerContext) => ControlLoop | undefined,
): Controller {
  return {
    name,
    start(ctx) {
      const loop = start(controllerClient(ctx.registry, ctx.catalog, { fieldManager, signal: ctx.signal }), ctx);
      if (loop) ctx.signal.addEventListener("abort", () => loop.stop(), { once: true });
    },
  };
}

/** A clock `rate` times faster than real time from now on (--cronjob-clock-rate, a test aid); fast clocks are read every second. */
function cronClock(rate: number): { now: () => number; resyncMs: number } {
  if (rate <= 1) return { now: Date.now, resyncMs: 10_000 };
  const start = Date.now();
  return { now: () => start + (Date.now() - start) * rate, resyncMs: 1000 };
}

export const WORKLOAD_CONTROLLERS: Controller[] = [
  loopController(
    "garbagecollector",
    "generic-garbage-collector",
    (client, ctx) => startGarbageCollector(ctx.registry, ctx.catalog, client),
  ),
  loopController("replicaset", CONTROLLER_MANAGER, (client) => startReplicaSetController(client, REPLICA_SETS)),
  loopController("replicationcontroller", CONTROLLER_MANAGER, (client) => startReplicaSetController(client, REPLICATION_CONTROLLERS)),
  loopController("deployment", CONTROLLER_MANAGER, (client) => startDeploymentController(client)),
  loopController("statefulset", CONTROLLER_MANAGER, (client) => startStatefulSetController(client)),
  loopController("daemonset", CONTROLLER_MANAGER, (client) => startDaemonSetController(client)),
  loopController("job", CONTROLLER_MANAGER, (client) => startJobController(client)),
  loopController(
    "cronjob",
    CONTROLLER_MANAGER,
    (client, ctx) => startCronJobController(client, cronClock(ctx.settings.config.cronjobClockRate)),
  ),
  loopController("scheduler", "default-scheduler", (client) => startScheduler(client)),
  loopController("simulated-nodes", "kubelet", (client, ctx) => {
    const { simulatedNodes: count, nodeMonitorGracePeriodMs } = ctx.settings.config;
    return count > 0 ? startSimulatedNodes(client, count, { leaseRenewMs: nodeMonitorGracePeriodMs / 4 }) : undefined;
  }),
];
export {
  type ControllerClient,
  controllerClient,
  DEPLOYMENTS,
  LEASES,
  NODES,
  PODS,
  REPLICA_SETS,
  REPLICATION_CONTROLLERS,
  type ResourceRef,
  STATEFUL_SETS,
} from "./client.ts";
export { setCondition } from "./conditions.ts";
export { scaledValue } from "./int-or-percent.ts";
export { type ControlLoop, startLoop, syncEach } from "./loop.ts";
export { controllerRefOf } from "./owner.ts";
export { isPodReady, podPhase } from "./pod-state.ts";
