/**
 * Starts the controllers --controllers enables, behind leader election when --leader-elect is on
 * (kube-controller-manager's lease kube-system/kube-controller-manager, named for kubun here): by an OS lock when
 * the caller has one (processes sharing a SQLite file), else by renewing the Lease as client-go does (etcd).
 */
import type { Catalog } from "../registry/catalog.ts";
import type { Registry } from "../registry/registry.ts";
import type { Controller, ControllerSettings, Elector, LeaderLock } from "./runtime/mod.ts";
import { isControllerEnabled, validateControllerList } from "./runtime/mod.ts";
import { LeaderElector, LockLeaderElector } from "./runtime/mod.ts";
import { ControllerManager } from "./runtime/mod.ts";

export const CONTROLLER_LEASE = { namespace: "kube-system", name: "kubun-controller-manager" };

export interface RunningControllers {
  stop(): Promise<void>;
}

export interface StartControllersOptions {
  controllers: Controller[];
  settings: ControllerSettings;
  log?: (line: string) => void;
  /** Elects the leader among processes sharing this lock instead of by Lease renewals; released on stop. */
  leaderLock?: LeaderLock;
}

/** Throws for unknown --controllers names (run before anything starts). */
export function checkControllerFlag(list: string[]): void {
  const problems = validateControllerList(list);
  if (problems.length > 0) throw new Error(`--controllers: ${problems.join(", ")}`);
}

export function startControllers(registry: Registry, catalog: Catalog, options: StartControllersOptions): RunningControllers {
  const { config } = options.settings;
  checkControllerFlag(config.controllers);
  const manager = new ControllerManager(registry, catalog, {
    controllers: options.controllers,
    settings: options.settings,
    enabled: (name) => isControllerEnabled(name, config.controllers),
    log: options.log,
  });
  if (!config.leaderElect) {
    void manager.start();
    return { stop: () => manager.stop() };
  }
  const leases = catalog.byGroupVersionResource("coordination.k8s.io", "v1", "leases");
  if (!leases) throw new Error("--leader-elect needs coordination.k8s.io/v1 leases, which --runtime-config turned off");
  const election = {
    ...CONTROLLER_LEASE,
    leaseDurationMs: config.leaderElectLeaseDurationMs,
    renewDeadlineMs: config.leaderElectRenewDeadlineMs,
    retryPeriodMs: config.leaderElectRetryPeriodMs,
    onStartedLeading: () => void manager.start(),
    onStoppedLeading: () => manager.stop(),
  };
  const elector: Elector = options.leaderLock
    ? new LockLeaderElector(registry.store(leases), options.leaderLock, election)
    : new LeaderElector(registry.store(leases), election);
  elector.start();
  return {
    async stop() {
      await elector.stop();
      await manager.stop();
    },
  };
}
